import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

export const PUBLIC_PASSWORD = 'public-password';
export const PUBLIC_AGENCY = { id: 55, name: 'Public Mosquito Control' };

export type PublicLikeUpstream = {
  url: string;
  app: FastifyInstance;
  sites: Array<Record<string, unknown>>;
  collections: Array<Record<string, unknown>>;
  /** GET/POST counts by path. */
  hits: Map<string, number>;
  /** Query strings of the GET requests, by path, in order. */
  queries: Map<string, string[]>;
  /** The next request to any /v1 path answers this status with a stack-trace-like text body. */
  failNext(status: number): void;
  /** Revokes every token it issued: each is refused with 401 from now on. */
  revokeTokens(): void;
  close(): Promise<void>;
};

/**
 * A small stand-in for the hosted public service (VectorSurv), with the variations the contract
 * says clients must tolerate: /login gives {token, agencies} and there is no /v1/me; lists are
 * {rows} without count; creates answer 200; elevation comes back as a string or a number; lures as
 * IDs or objects; only some lookup endpoints exist; Idempotency-Key is ignored; query[...] filters
 * are ignored; it sets its own cookie. This is the one fake in these tests: it stands for a hosted
 * service that cannot run here.
 */
export type PublicLikeOptions = {
  /** Older collections to hold besides the two shown in tolerance tests (ids from 100 up). */
  extraCollections?: number;
  /** Extra species rows (ids from 1000 up), to list more than one page. */
  extraSpecies?: number;
  /** Lookup paths answered with this status instead of their rows (e.g. 405, 501). */
  lookupStatus?: Record<string, number>;
};

/** Most rows any list answers at once, whatever pageSize asks (as the public service caps it). */
const MAX_PAGE = 1000;

/**
 * Real paging as the public service does it: `page` (1-based) and `pageSize` (default 100) are
 * honoured, oldest first; `sort` and `query[...]` are ignored.
 */
function paged(rows: unknown[], query: unknown): unknown[] {
  const q = (query ?? {}) as Record<string, unknown>;
  const page = Math.max(1, Number(q.page) || 1);
  const size = Math.min(MAX_PAGE, Math.max(1, Number(q.pageSize) || 100));
  return rows.slice((page - 1) * size, page * size);
}

export async function startPublicLikeUpstream(
  options: PublicLikeOptions = {},
): Promise<PublicLikeUpstream> {
  const app = Fastify({ logger: false });
  const tokens = new Set<string>();
  const sites: Array<Record<string, unknown>> = [
    {
      id: 1,
      code: '000000',
      name: 'Zero Site',
      elevation: '12.50',
      shape: { type: 'Point', coordinates: [-121.5, 38.6] },
    },
    {
      id: 2,
      code: '100001',
      name: 'Levee Road',
      elevation: 7,
      shape: { type: 'Point', coordinates: [-121.4, 38.5] },
    },
  ];
  const collections: Array<Record<string, unknown>> = [
    { id: 10, collection_date: '2026-05-01T00:00:00.000Z', trap: 1, site: 2, lures: [3, 4] },
    {
      id: 11,
      collection_date: '2026-05-02T00:00:00.000Z',
      trap: 1,
      site: 2,
      lures: [
        {
          id: 90,
          lure: 3,
          table_name: 'collection',
          record_id: 11,
          agency: 55,
          add_date: null,
          deactive_date: null,
        },
      ],
    },
  ];
  const old = new Date(Date.now() - 30 * 86_400_000).toISOString();
  for (let i = 0; i < (options.extraCollections ?? 0); i++) {
    collections.push({
      id: 100 + i,
      collection_date: new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString(),
      trap: 1,
      site: 2,
      lures: [],
      add_date: old,
    });
  }
  const hits = new Map<string, number>();
  const queries = new Map<string, string[]>();
  let failure: number | null = null;

  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    hits.set(`${req.method} ${path}`, (hits.get(`${req.method} ${path}`) ?? 0) + 1);
    if (req.method === 'GET') {
      const q = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      queries.set(path, [...(queries.get(path) ?? []), q]);
    }
    reply.header('set-cookie', 'upstream_session=should-never-reach-the-browser; Path=/');
    if (!path.startsWith('/v1/')) return;
    if (failure !== null) {
      const status = failure;
      failure = null;
      return reply
        .status(status)
        .type('text/plain')
        .send('Error: boom\n    at Object.<anonymous> (/srv/app.js:1:1)');
    }
    const auth = req.headers.authorization ?? '';
    if (!tokens.has(auth.replace(/^Bearer /, '')))
      return reply.status(401).type('text/plain').send('Unauthorized');
  });

  app.post('/login', async (req, reply) => {
    const body = (req.body ?? {}) as { username?: string; password?: string };
    if (body.password !== PUBLIC_PASSWORD)
      return reply.status(401).type('text/plain').send('Invalid login');
    const token = randomBytes(24).toString('hex');
    tokens.add(token);
    return { token, agencies: [PUBLIC_AGENCY] };
  });
  app.get('/v1/site', async (req) => ({ rows: paged(sites, req.query) }));
  app.get('/v1/site/:id', async (req, reply) => {
    const site = sites.find((s) => s.id === Number((req.params as { id: string }).id));
    return site ?? reply.status(404).type('text/plain').send('Not Found');
  });
  app.post('/v1/site', async (req, reply) => {
    const body = req.body as Record<string, unknown>;
    if (sites.some((s) => s.code === body.code))
      return reply.status(422).send({ message: 'code in use' });
    const site = {
      id: sites.length + 1,
      ...body,
      elevation: body.elevation == null ? null : String(body.elevation),
      add_date: new Date().toISOString(),
    };
    sites.push(site);
    return reply.status(200).send(site);
  });
  app.get('/v1/arthropod/collection', async (req) => ({ rows: paged(collections, req.query) }));
  // Creates answer 200 and check nothing for duplicates: a create sent twice is stored twice.
  app.post('/v1/arthropod/collection', async (req, reply) => {
    const body = req.body as Record<string, unknown>;
    const id = Math.max(...collections.map((c) => Number(c.id))) + 1;
    const row = {
      ...body,
      id,
      collection_date: new Date(String(body.collection_date)).toISOString(),
      add_date: new Date().toISOString(),
    };
    collections.push(row);
    return reply.status(200).send(row);
  });
  const lookup = (rows: unknown[]) => async (req: FastifyRequest, reply: FastifyReply) => {
    const status = options.lookupStatus?.[req.url.split('?')[0]];
    if (status) return reply.status(status).type('text/plain').send('Not supported');
    return { rows: paged(rows, req.query) };
  };
  app.get(
    '/v1/species',
    lookup([
      { id: 501, full_name: 'Culex tarsalis', display_name: 'Cx tarsalis', type: 'mosquito' },
      ...Array.from({ length: options.extraSpecies ?? 0 }, (_, i) => ({
        id: 1000 + i,
        full_name: `Aedes species ${i}`,
        display_name: `Ae sp ${i}`,
        type: 'mosquito',
      })),
    ]),
  );
  app.get('/v1/sex', lookup([{ id: 1, name: 'Female', type: 'female' }]));
  app.get('/v1/trap', async () => [{ id: 7, acronym: 'CO2', name: 'CO2 trap', presence: false }]);
  app.get('/v1/lure', lookup([{ id: 3, code: 'CO2', description: 'Dry ice', weight: '1.0' }]));
  app.get(
    '/v1/region',
    lookup([{ id: 6, name: 'California', type: 'state', geoid: '06', parent: null }]),
  );
  app.get(
    '/v1/test/method',
    lookup([{ id: 1, name: 'RT-PCR', acronym: 'RT-PCR', sensitivity: 3 }]),
  );
  app.get('/v1/test/target', lookup([{ id: 1, acronym: 'WNV', name: 'West Nile virus' }]));

  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    app,
    sites,
    collections,
    hits,
    queries,
    failNext: (status) => {
      failure = status;
    },
    revokeTokens: () => tokens.clear(),
    close: () => app.close(),
  };
}
