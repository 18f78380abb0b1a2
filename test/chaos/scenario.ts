import { createRecords } from '../../src/client/db/create-records';
import type { TraplineDb } from '../../src/client/db/database';
import { deleteRecord } from '../../src/client/db/delete-record';
import { updateRecord } from '../../src/client/db/update-record';
import { recordTable } from '../../src/client/db/record-tables';
import type { Entity } from '../../src/shared';
import {
  METHOD_ID,
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from '../../src/server/records/seed/lookup-data';
import type { Rng } from './prng';

/** A record the scenario makes, named by a path such as `s0.c1.p0.t1`. */
type Node = {
  key: string;
  entity: Entity;
  parent: string | null;
  data: (agencyId: number) => Record<string, unknown>;
  /** Made to be deleted later (it never gets children, so the delete is always allowed). */
  doomed: boolean;
};

export type StepContext = {
  db: TraplineDb;
  agencyId: number;
  /** Scenario key → localId of the records made so far. */
  made: Map<string, string>;
  /** What the run made and deleted, for the comparison. */
  created: Array<{ entity: Entity; localId: string }>;
  deleted: Set<string>;
  /** Starts a pull of the server's records (not awaited: it runs beside the drain). */
  pull(): void;
};

export type Step = { label: string; run(ctx: StepContext): Promise<void> };

/** A record of the field work, by its scenario key (photos are planned on them). */
export type ScenarioRecord = { key: string; entity: Entity; doomed: boolean };

export type Scenario = { siteCodes: string[]; steps: Step[]; records: ScenarioRecord[] };

const DAY = 86_400_000;
const isoDay = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);

/**
 * The field work of one seed: sites, each with collections, pools and pool tests, several per
 * parent, the first two siblings of each kind look-alikes ON PURPOSE (two traps of one kind at a
 * site on a day with the same counts; two pools of one species, sex and size; two same-day tests
 * of a pool by the same method for the same target), sometimes identical to the last field,
 * sometimes differing only in their comments. Records are saved in a random order that keeps
 * every parent before its children; edits and deletes land at random moments after their
 * record was saved (so some hit a queued create, some a create being sent, some a synced record).
 */
export function buildScenario(seed: number, rng: Rng, sites: number): Scenario {
  const nodes: Node[] = [];
  const siteCodes: string[] = [];
  const add = (node: Omit<Node, 'doomed'> & { doomed?: boolean }) => {
    nodes.push({ doomed: false, ...node });
    return node.key;
  };
  for (let si = 0; si < sites; si += 1) {
    const code = String(100000 + ((seed * 8 + si) % 900000));
    siteCodes.push(code);
    const s = add({
      key: `s${si}`,
      entity: 'site',
      parent: null,
      data: () => ({
        code,
        name: `Chaos ${seed}.${si}`,
        coordinate_precision: PRECISION_ID.gps,
        shape: { type: 'Point', coordinates: [-121.49 + si / 100, 38.58] },
      }),
    });
    const collectionDate = isoDay(rng.between(1, 5));
    const twins = rng.chance(0.5);
    const collections = rng.between(2, 3);
    for (let ci = 0; ci < collections; ci += 1) {
      const c = add({
        key: `${s}.c${ci}`,
        entity: 'collection',
        parent: s,
        data: () => ({
          collection_date: collectionDate,
          num_trap: 1,
          // The first two: the same trap, day and counts at one site.
          trap: ci < 2 ? TRAP_ID.co2 : TRAP_ID.gravid,
          trap_nights: 1,
          arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 120 }],
          ...(twins || ci >= 2 ? {} : { comments: `trap ${'AB'[ci]}` }),
        }),
      });
      const pools = rng.between(2, 3);
      for (let pi = 0; pi < pools; pi += 1) {
        const p = add({
          key: `${c}.p${pi}`,
          entity: 'pool',
          parent: c,
          data: () => ({
            // The first two: one species, sex and size from one collection.
            num_count: pi < 2 ? 25 : 10,
            species: SPECIES_ID.cxTarsalis,
            sex: SEX_ID.fMixed,
          }),
        });
        const tests = pi < 2 ? rng.between(1, 2) : rng.between(0, 1);
        for (let ti = 0; ti < tests; ti += 1) {
          add({
            key: `${p}.t${ti}`,
            entity: 'poolTest',
            parent: p,
            // Same day, method and target: a re-test of the pool.
            data: (agencyId) => ({
              method: METHOD_ID.rtPcr,
              target: TARGET_ID.wnv,
              status: STATUS_ID.negative,
              test_date: isoDay(0),
              test_agency: agencyId,
            }),
          });
        }
      }
      if (ci === 0 && rng.chance(0.7)) {
        add({
          key: `${c}.pdoomed`,
          entity: 'pool',
          parent: c,
          doomed: true,
          data: () => ({ num_count: 5, species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed }),
        });
      }
    }
    if (rng.chance(0.5)) {
      add({
        key: `${s}.cdoomed`,
        entity: 'collection',
        parent: s,
        doomed: true,
        data: () => ({
          collection_date: collectionDate,
          num_trap: 1,
          trap: TRAP_ID.njlt,
          trap_nights: 1,
        }),
      });
    }
  }

  // Creation order: any saved parent's children may come next.
  const order: Node[] = [];
  const ready = nodes.filter((n) => n.parent === null);
  while (ready.length > 0) {
    const [n] = ready.splice(rng.int(ready.length), 1);
    order.push(n);
    ready.push(...nodes.filter((c) => c.parent === n.key));
  }
  const steps: Step[] = order.map((n) => ({
    label: `create ${n.key}`,
    run: async (ctx) => {
      const parentLocalId = n.parent ? (ctx.made.get(n.parent) ?? null) : null;
      const [localId] = await createRecords(ctx.db, n.entity, [
        { data: n.data(ctx.agencyId), parentLocalId },
      ]);
      ctx.made.set(n.key, localId);
      ctx.created.push({ entity: n.entity, localId });
    },
  }));

  const later = (afterKey: string, step: Step) => {
    const at = steps.findIndex((s) => s.label === `create ${afterKey}`);
    steps.splice(rng.between(at + 1, steps.length), 0, step);
  };
  const editable = nodes.filter((n) => !n.doomed);
  for (let i = rng.between(2, 5); i > 0; i -= 1) {
    const n = rng.pick(editable);
    const k = i;
    later(n.key, {
      label: `edit ${n.key}`,
      run: async (ctx) => {
        const localId = ctx.made.get(n.key)!;
        const row = await recordTable(ctx.db, n.entity).get(localId);
        if (!row) return;
        await updateRecord(ctx.db, n.entity, localId, edited(n.entity, row.data, k));
      },
    });
  }
  for (const n of nodes.filter((x) => x.doomed)) {
    later(n.key, {
      label: `delete ${n.key}`,
      run: async (ctx) => {
        const localId = ctx.made.get(n.key)!;
        await deleteRecord(ctx.db, n.entity, localId);
        ctx.deleted.add(localId);
      },
    });
  }
  if (rng.chance(0.5)) {
    steps.splice(rng.int(steps.length + 1), 0, { label: 'pull', run: async (ctx) => ctx.pull() });
  }
  const records = nodes.map(({ key, entity, doomed }) => ({ key, entity, doomed }));
  return { siteCodes, steps, records };
}

/** A user's edit of a record: a field each kind's form really changes. */
function edited(entity: Entity, data: Record<string, unknown>, k: number): Record<string, unknown> {
  switch (entity) {
    case 'site':
      return { ...data, name: `${String(data.name)} (edit ${k})` };
    case 'collection':
      return { ...data, comments: `edit ${k}` };
    case 'pool':
      // One more mosquito: the pools of a collection stay within its abundance count.
      return { ...data, num_count: Number(data.num_count) + 1 };
    case 'poolTest':
      return { ...data, status: STATUS_ID.presumptive, value: 30 + k };
  }
}
