import { ENTITIES, ENTITY, type Entity } from '../../../../src/shared/entities';
import { site } from './outbox-factory';

/**
 * The network edge of the sync tests: a fetch stub answering like the BFF in front of the records
 * service would (ids, `updated`, Idempotency-Key replay, lists with paging, error bodies), with
 * faults injected per request. Everything behind it is real (Dexie on fake-indexeddb, request()).
 */
export type FakeRequest = {
  method: string;
  path: string;
  entity: Entity;
  id: number | null;
  key: string | null;
  body: unknown;
};

/**
 * A request of a site pull proper: a page of the site list, not the check of which site ids are
 * still active (`fields[]=id`).
 */
export const isSitePull = (r: FakeRequest) =>
  r.method === 'GET' && r.entity === 'site' && !r.path.includes('fields');

/** The site pull requests `bff` has seen (isSitePull). */
export const sitePulls = (bff: FakeBff): FakeRequest[] => bff.requests.filter(isSitePull);

/**
 * Two sites the office added that look alike (one name, one place, codes of their own): a pull
 * that stores one twice, or one for the other, shows.
 */
export const seedTwinSites = (bff: FakeBff) =>
  [1, 2].map((n) => bff.seed('site', { ...site(n), name: 'Twin Slough' }));

/** The next `times` site pulls are answered 503 (the server unavailable), the rest as usual. */
export function failSitePulls(bff: FakeBff, times: number) {
  let left = times;
  bff.fault = (req) => (isSitePull(req) && left-- > 0 ? { status: 503 } : null);
}

/**
 * What to do with a request:
 * - 'drop-before': connection fails before the server sees it;
 * - 'drop-after': the server applies it but the answer is lost (the client sees a network error);
 * - 'cut-answer': the server applies it and its answer's headers arrive (201), but the connection
 *   drops halfway through the body (reading the body fails);
 * - { status, code?, retryAfter?, fields? }: the answer is that error and nothing is applied.
 */
export type Fault =
  | 'drop-before'
  | 'drop-after'
  | 'cut-answer'
  | {
      status: number;
      code?: string;
      message?: string;
      retryAfter?: string;
      fields?: { path: string; message: string }[];
    }
  | null
  | undefined;

/**
 * Documented variations of the public VectorSurv API a client must tolerate (contract, marked
 * *tolerate*), and one it should survive: an upstream that ignores paging.
 */
export type Variations = {
  /** Lists carry no `count`. */
  noCount?: boolean;
  /** Lists are a bare array, not `{rows}`. */
  bareArray?: boolean;
  /** Lists ignore `page` and `pageSize`: every matching row, every time. */
  ignorePaging?: boolean;
  /** Lists ignore `page` but honour `pageSize`: the first page, every time. */
  ignorePage?: boolean;
  /** Creates are answered 200, not 201. */
  created200?: boolean;
  /** `elevation` is returned as a numeric string. */
  elevationString?: boolean;
  /** Collection lures are returned as lure records `{id, lure}` (no table_name). */
  luresAsRecords?: boolean;
};

/** Every variation of the public service at once. */
export const PUBLIC_VARIATIONS: Variations = {
  noCount: true,
  bareArray: true,
  created200: true,
  elevationString: true,
  luresAsRecords: true,
};

export type StoredRecord = Record<string, unknown> & { id: number; updated: string };

const ENTITY_BY_PATH = new Map(
  ENTITIES.map((entity) => [entity, ENTITY[entity].path] as const)
    .sort((a, b) => b[1].length - a[1].length)
    .map(([entity, path]) => [path, entity]),
);

export class FakeBff {
  readonly records = new Map<Entity, Map<number, StoredRecord>>();
  /** Successful POSTs the server applied, by Idempotency-Key. */
  readonly appliedPosts = new Map<string, number>();
  readonly requests: FakeRequest[] = [];
  /** Order in which the server applied writes (Idempotency-Key or `METHOD entity/id`). */
  readonly applied: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  fault: (req: FakeRequest) => Fault = () => null;
  variations: Variations = {};
  /** Runs when a write is applied (e.g. to check dependencies). */
  onApply: (req: FakeRequest, record: StoredRecord | null) => void = () => undefined;
  private nextId = 1;
  private clock = Date.parse('2026-07-01T00:00:00.000Z');
  private readonly idempotency = new Map<
    string,
    { body: string; status: number; response: unknown }
  >();

  constructor(readonly delayMs = 0) {
    for (const entity of ENTITIES) this.records.set(entity, new Map());
  }

  /** Puts a record on the server directly (as if another device had created it). */
  seed(entity: Entity, fields: Record<string, unknown>): StoredRecord {
    const now = this.tick();
    const record: StoredRecord = { id: this.nextId++, ...fields, add_date: now, updated: now };
    this.records.get(entity)!.set(record.id, record);
    return record;
  }

  /** Changes a record on the server (as another user would), bumping `updated`. */
  edit(entity: Entity, id: number, fields: Record<string, unknown>): StoredRecord {
    const record = this.records.get(entity)!.get(id)!;
    Object.assign(record, fields, { updated: this.tick() });
    return record;
  }

  /** Time passes on the server with no write (its clock gives `updated` and the `Date` header). */
  passTime(ms: number): void {
    this.clock += ms;
  }

  get(entity: Entity, id: number): StoredRecord | undefined {
    return this.records.get(entity)!.get(id);
  }

  all(entity: Entity): StoredRecord[] {
    return [...this.records.get(entity)!.values()];
  }

  postsFor(key: string): number {
    return this.appliedPosts.get(key) ?? 0;
  }

  /** The id of the record a keyed create made (as its recorded answer gives it), if any. */
  createdWith(key: string): number | undefined {
    return (this.idempotency.get(key)?.response as { id?: number } | undefined)?.id;
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(
      typeof input === 'string' ? input : input.toString(),
      'http://tablet.local',
    );
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    const rest = url.pathname.replace(/^\/api/, '').replace(/\/$/, '');
    const match = /^(.*?)(?:\/(\d+))?$/.exec(rest)!;
    const entity = ENTITY_BY_PATH.get(match[1]);
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    if (!entity) return json(404, { error: { code: 'not_found', message: `No route ${rest}` } });
    const req: FakeRequest = {
      method,
      path: url.pathname + url.search,
      entity,
      id: match[2] ? Number(match[2]) : null,
      key: headers.get('Idempotency-Key'),
      body,
    };
    this.requests.push(req);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      // A negative delay answers without a timer (tests that fake timers).
      if (this.delayMs >= 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      const fault = this.fault(req);
      if (fault === 'drop-before') throw new TypeError('fetch failed');
      if (fault && typeof fault === 'object') {
        const h: Record<string, string> = fault.retryAfter
          ? { 'Retry-After': fault.retryAfter }
          : {};
        const code = fault.code ?? (fault.status >= 500 ? 'upstream_unavailable' : 'rejected');
        return json(
          fault.status,
          {
            error: { code, message: fault.message ?? `HTTP ${fault.status}`, fields: fault.fields },
          },
          h,
        );
      }
      const response = this.handle(req, url);
      if (fault === 'drop-after') throw new TypeError('fetch failed');
      if (fault === 'cut-answer') return cutOff(response);
      return response;
    } finally {
      this.inFlight -= 1;
    }
  };

  private handle(req: FakeRequest, url: URL): Response {
    const table = this.records.get(req.entity)!;
    if (req.method === 'GET' && req.id === null) return this.list(req.entity, url);
    if (req.method === 'POST') {
      const bodyText = JSON.stringify(req.body);
      if (req.key) {
        const seen = this.idempotency.get(req.key);
        if (seen && seen.body !== bodyText) {
          return json(422, {
            error: { code: 'idempotency_key_reused', message: 'Key reused with another body' },
          });
        }
        if (seen) return json(seen.status, seen.response);
      }
      const now = this.tick();
      const record: StoredRecord = {
        id: this.nextId++,
        ...(req.body as object),
        add_date: now,
        updated: now,
      };
      table.set(record.id, record);
      const status = this.variations.created200 ? 200 : 201;
      const response = this.present(record);
      if (req.key) {
        this.idempotency.set(req.key, { body: bodyText, status, response });
        this.appliedPosts.set(req.key, this.postsFor(req.key) + 1);
      }
      this.applied.push(req.key ?? `POST ${req.entity}`);
      this.onApply(req, record);
      return json(status, response);
    }
    const record = req.id === null ? undefined : table.get(req.id);
    if (!record) return json(404, { error: { code: 'not_found', message: 'Not found' } });
    if (req.method === 'GET') return json(200, this.present(record));
    if (req.method === 'PUT') {
      Object.assign(record, req.body as object, { id: record.id, updated: this.tick() });
      this.applied.push(`PUT ${req.entity}/${record.id}`);
      this.onApply(req, record);
      return json(200, this.present(record));
    }
    if (req.method === 'DELETE') {
      table.delete(record.id);
      this.applied.push(`DELETE ${req.entity}/${record.id}`);
      this.onApply(req, null);
      return new Response(null, { status: 204 });
    }
    return json(405, { error: { code: 'method_not_allowed', message: 'No' } });
  }

  private list(entity: Entity, url: URL): Response {
    const pageSize = Number(url.searchParams.get('pageSize') ?? 100);
    const page = Number(url.searchParams.get('page') ?? 1);
    const updatedGt = url.searchParams.get('query[updated][$gt]');
    const dateGte = url.searchParams.get('query[collection_date][$gte]');
    // query[field][$in][i]=v: the field's value is one of the listed ones.
    const inLists = new Map<string, string[]>();
    for (const [key, value] of url.searchParams) {
      const m = /^query\[(\w+)\]\[\$in\]\[\d+\]$/.exec(key);
      if (m) inLists.set(m[1], [...(inLists.get(m[1]) ?? []), value]);
    }
    const fields = url.searchParams.getAll('fields[]');
    const rows = this.all(entity)
      .filter((r) => !updatedGt || r.updated > updatedGt)
      .filter((r) => !dateGte || String(this.dateOf(entity, r)) >= dateGte)
      .filter((r) => [...inLists].every(([f, vs]) => vs.includes(String(r[f]))))
      .sort((a, b) => a.id - b.id)
      .map((r) =>
        fields.length
          ? (Object.fromEntries(
              Object.entries(r).filter(([k]) => k === 'id' || fields.includes(k)),
            ) as StoredRecord)
          : r,
      );
    const v = this.variations;
    const pageRows = (
      v.ignorePaging
        ? rows
        : rows.slice(
            ((v.ignorePage ? 1 : page) - 1) * pageSize,
            (v.ignorePage ? 1 : page) * pageSize,
          )
    ).map((r) => this.present(r));
    // The server's time, as a Date header gives it (whole seconds): what the pull's mark settles by.
    const date = { Date: new Date(this.clock).toUTCString() };
    if (v.bareArray) return json(200, pageRows, date);
    return json(200, v.noCount ? { rows: pageRows } : { rows: pageRows, count: rows.length }, date);
  }

  /** A record's collection date: a pool carries its collection's (contract §4). */
  private dateOf(entity: Entity, r: StoredRecord): unknown {
    if (entity !== 'pool' || typeof r.collection !== 'number') return r.collection_date;
    return this.get('collection', r.collection)?.collection_date ?? r.collection_date;
  }

  /** A stored record as the server answers it, in the shapes the variations ask for. */
  private present(record: StoredRecord): StoredRecord {
    const out: StoredRecord = { ...record };
    if (this.variations.elevationString && typeof out.elevation === 'number')
      out.elevation = String(out.elevation);
    if (this.variations.luresAsRecords && Array.isArray(out.lures)) {
      out.lures = out.lures.map((lure: unknown, i: number) => ({
        id: out.id * 100 + i,
        lure,
      }));
    }
    return out;
  }

  private tick(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** The same status and headers, and half the body, then the connection drops. */
async function cutOff(response: Response): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.slice(0, Math.floor(bytes.length / 2)));
      controller.error(new TypeError('terminated'));
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
