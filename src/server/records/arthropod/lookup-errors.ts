import type { Queryable } from '../../db/database';
import type { FieldError } from '../../../shared/schemas/error';

/** Lookup tables a record may reference, with the words a person sees for each. */
const LOOKUPS = {
  species: 'species',
  sex: 'sex',
  trap: 'trap type',
  lure: 'lure type',
  coordinate_precision: 'coordinate precision',
  test_method: 'test method',
  test_target: 'test target',
  test_status: 'test status',
  agency: 'agency',
} as const;
export type LookupTable = keyof typeof LOOKUPS;

export type LookupRef = { path: string; table: LookupTable; id: number };

/**
 * Field errors for every reference to an unknown or inactive lookup entry (contract §5), one per
 * failing field, so a request learns all its problems at once. Agencies have no `active` flag:
 * any existing agency may be named (an outside laboratory has one too).
 */
export async function lookupErrors(q: Queryable, refs: LookupRef[]): Promise<FieldError[]> {
  const byTable = new Map<LookupTable, Set<number>>();
  for (const r of refs) {
    const ids = byTable.get(r.table) ?? new Set<number>();
    ids.add(r.id);
    byTable.set(r.table, ids);
  }
  const known = new Map<LookupTable, Set<number>>();
  for (const [table, ids] of byTable) {
    // Table names come from the fixed LOOKUPS keys above, never from the request.
    const active = table === 'agency' ? '' : ' and active';
    const { rows } = await q.query<{ id: number }>(
      `select id from ${table} where id = any($1::int[])${active}`,
      [[...ids]],
    );
    known.set(table, new Set(rows.map((r) => r.id)));
  }
  return refs
    .filter((r) => !known.get(r.table)?.has(r.id))
    .map((r) => ({
      path: r.path,
      message: `No ${r.table === 'agency' ? '' : 'active '}${LOOKUPS[r.table]} with ID ${r.id}; pick one from the ${LOOKUPS[r.table]} list`,
    }));
}
