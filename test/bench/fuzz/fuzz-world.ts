import type { SeededRandom } from './seeded-random';

export type Resource = 'site' | 'collection' | 'pool' | 'test';

/** Who sends a request: a records-service bearer token, and (except agency tokens) a BFF cookie. */
export type Actor = {
  name: 'tech' | 'manager' | 'neighbor' | 'agency-token';
  agency: number;
  token: string;
  cookie: string | null;
};

/** An abundance row as a collection's answer lists it: what a pool may be drawn from. */
export type AbundanceRow = { species: number; sex: number; num_count: number };

type AgencyRecords = {
  live: Record<Resource, number[]>;
  retired: Record<Resource, number[]>;
  abundance: Map<number, AbundanceRow[]>;
  agencyTokens: number[];
};

const emptyRecords = (): AgencyRecords => ({
  live: { site: [], collection: [], pool: [], test: [] },
  retired: { site: [], collection: [], pool: [], test: [] },
  abundance: new Map(),
  agencyTokens: [],
});

const HOSTILE_IDS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '01',
  '+1',
  ' 1',
  'abc',
  'null',
  'NaN',
  '2147483647',
  '2147483648',
  '9007199254740993',
  '99999999999999999999',
  '__proto__',
  'constructor',
  '%00',
  '%20',
  '1%2F2',
  "1'",
  '💥',
];

/**
 * What the fuzz knows of the server: the actors, and the IDs of records each agency holds
 * (learnt from setup and from every 2xx create or delete), so that most requests name real
 * records and reach the rules behind validation.
 */
export class FuzzWorld {
  readonly agencies = new Map<number, AgencyRecords>();
  /** Sessions made by the fuzz's own sign-ins: these may be signed out, the actors' never. */
  readonly spareCookies: string[] = [];
  /** Login tokens of the fuzz's own sign-ins: these may be revoked, the actors' never. */
  readonly spareTokens: string[] = [];

  constructor(readonly actors: Actor[]) {}

  of(agency: number): AgencyRecords {
    let a = this.agencies.get(agency);
    if (!a) this.agencies.set(agency, (a = emptyRecords()));
    return a;
  }

  actor(name: Actor['name']): Actor {
    const a = this.actors.find((x) => x.name === name);
    if (!a) throw new Error(`no actor ${name}`);
    return a;
  }

  /** A live record of the agency, or undefined when it has none yet. */
  liveId(rng: SeededRandom, agency: number, resource: Resource): number | undefined {
    const ids = this.of(agency).live[resource];
    // Recent records more often: they are the ones with children and edits in flight.
    if (ids.length === 0) return undefined;
    const i = rng.chance(0.5) ? ids.length - 1 - rng.int(0, Math.min(9, ids.length - 1)) : null;
    return ids[i ?? rng.int(0, ids.length - 1)];
  }

  /**
   * An ID for a path or a reference: mostly the actor's own live records, else another agency's,
   * a retired one, one that never existed, or text that is no ID at all.
   */
  pathId(rng: SeededRandom, agency: number, resource: Resource): string {
    const other = agency === 1 ? 2 : 1;
    const choice = rng.weighted<() => number | string | undefined>([
      [60, () => this.liveId(rng, agency, resource)],
      [12, () => this.liveId(rng, other, resource)],
      [6, () => rng.pick(this.of(agency).retired[resource].concat([1]))],
      [4, () => rng.pick([999_999, 2_147_483_647, 1])],
      [18, () => rng.pick(HOSTILE_IDS)],
    ])();
    return String(choice ?? 1);
  }

  /** A numeric reference for a body: the actor's own record mostly, else another agency's. */
  refId(rng: SeededRandom, agency: number, resource: Resource): number {
    const other = agency === 1 ? 2 : 1;
    const id = rng.chance(0.9)
      ? this.liveId(rng, agency, resource)
      : this.liveId(rng, other, resource);
    return id ?? 1;
  }

  learnCreated(agency: number, resource: Resource, record: Record<string, unknown>): void {
    const id = record.id;
    if (typeof id !== 'number') return;
    const a = this.of(agency);
    if (!a.live[resource].includes(id)) a.live[resource].push(id);
    if (resource === 'collection' && Array.isArray(record.arthropods)) {
      a.abundance.set(
        id,
        (record.arthropods as Record<string, unknown>[]).map((r) => ({
          species: refNumber(r.species),
          sex: refNumber(r.sex),
          num_count: Number(r.num_count),
        })),
      );
    }
  }

  learnRetired(agency: number, resource: Resource, id: number): void {
    const a = this.of(agency);
    a.live[resource] = a.live[resource].filter((x) => x !== id);
    if (!a.retired[resource].includes(id)) a.retired[resource].push(id);
    if (resource === 'collection') {
      a.abundance.delete(id);
    }
  }
}

function refNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'number')
    return (v as { id: number }).id;
  return 0;
}
