/**
 * Contract §6 "pooled ≤ counted": the active pools of a collection may not together hold more of
 * a species and sex than the collection's abundance row for them; no row counts as zero
 * (422 `pool_count_exceeds_abundance`). The records service reads the pools and rows with SQL
 * under a lock, the pool builder and the collection form from the tablet; all three decide with
 * `exceedsCount` and word the problem with the messages below.
 */

export type SpeciesSex = { species: number; sex: number };
export type Counted = SpeciesSex & { num_count: number };
/** A species and sex whose pools hold `pooled` against a count of `counted`. */
export type PoolOverflow = SpeciesSex & { pooled: number; counted: number };

export const speciesSexKey = (r: SpeciesSex): string => `${r.species}:${r.sex}`;

/** The rule itself: `pooled` of a species and sex may not pass its count (missing = 0). */
export function exceedsCount(pooled: number, counted: number | undefined): boolean {
  return pooled > (counted ?? 0);
}

/** How many of each species and sex (by `speciesSexKey`) the pools hold together. */
export function pooledTotals(pools: readonly Counted[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const p of pools) {
    const key = speciesSexKey(p);
    sums.set(key, (sums.get(key) ?? 0) + p.num_count);
  }
  return sums;
}

/**
 * Every species and sex whose pools hold more than the abundance rows counted, in the order the
 * pools first name them. A species and sex counts by its first row (rows are unique per species
 * and sex, contract §6).
 */
export function poolOverflows(pools: readonly Counted[], rows: readonly Counted[]): PoolOverflow[] {
  const counted = new Map<string, number>();
  for (const r of rows) {
    if (!counted.has(speciesSexKey(r))) counted.set(speciesSexKey(r), r.num_count);
  }
  const overflows: PoolOverflow[] = [];
  // A Map keeps its keys in the order they were first set: the order the pools name them.
  for (const [key, pooled] of pooledTotals(pools)) {
    if (!exceedsCount(pooled, counted.get(key))) continue;
    const [species, sex] = key.split(':').map(Number);
    overflows.push({ species, sex, pooled, counted: counted.get(key) ?? 0 });
  }
  return overflows;
}

/** The records service's 422 message (it does not name species or sex: the path says where). */
export function poolOverflowMessage(o: { pooled: number; counted: number }): string {
  return o.counted === 0
    ? `The collection has no count for this species and sex; add it to the collection's arthropods before pooling`
    : `Pools would hold ${o.pooled} but the collection counted only ${o.counted} of this species and sex; lower the pool count or correct the collection`;
}

/** The pool builder's message on the pool that goes over; `what` names the species and sex. */
export function poolBuilderOverflowMessage(
  o: { pooled: number; counted: number },
  what: string,
): string {
  return o.counted === 0
    ? `No ${what} were counted in this collection`
    : `Only ${o.counted} ${what} were counted: these pools would hold ${o.pooled}`;
}

/**
 * The collection form's message when an edit would leave fewer counted than its pools hold:
 * the row was removed (`rowMissing`) or its count lowered.
 */
export function countBelowPooledMessage(pooled: number, what: string, rowMissing: boolean): string {
  return rowMissing
    ? `${pooled} ${what} are already in pools: keep their row with a count of at least ${pooled}, or remove those pools first`
    : `${pooled} ${what} are already in pools: the count cannot be lower than ${pooled}`;
}
