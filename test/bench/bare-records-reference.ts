/**
 * The reference for the records service's own cost (issue 13, table row 3): a bare Fastify app
 * over the same migrated, seeded PGlite, doing the reads and writes a create and a list page
 * cannot do without, and nothing else: authenticate the bearer token (one indexed read), read
 * the site and its place, take the numbering lock, insert the location, the collection (next
 * number by subquery), its abundance rows and lures (one statement each, by `unnest`), and
 * answer from what was written; a list page is one statement building the JSON with its rows'
 * abundance and lures (what the service's list rows hold), and the total by a window count.
 * No validation beyond the database's constraints, no idempotency, no hooks: the floor any
 * service on this database stands on.
 *
 * Run as a child process by records-vs-bare-bench.ts: `node --import tsx
 * bare-records-reference.ts <records|bare> <dataDir>` prints one JSON line `{url, token, site}`.
 */
import Fastify from 'fastify';
import type { Database } from '../../src/server/db/database';
import { openDatabase } from '../../src/server/db/open-database';
import { hashToken } from '../../src/server/records/auth/tokens';
import { buildRecords } from '../../src/server/records/app';
import { seedDemoAgencies } from '../../src/server/records/seed/seed-demo-agencies';
import { seedLookups } from '../../src/server/records/seed/seed-lookups';
import { PRECISION_ID } from '../../src/server/records/seed/lookup-data';

const PASSWORD = 'bench-password';

type Body = {
  collection_date: string;
  num_trap: number;
  trap: number;
  trap_nights: number;
  site: number;
  lures?: number[];
  arthropods: Array<{ species: number; sex: number; num_count: number }>;
};

function buildBare(db: Database) {
  const app = Fastify({ logger: false });
  const caller = async (authorization: string | undefined) => {
    const token = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
    const { rows } = await db.query<{ agency: number; user_id: number }>(
      `select t.agency, t.user_id from api_token t join app_user u on u.id = t.user_id
        where t.token_hash = $1 and t.revoked_at is null and u.active and t.expires_at > now()`,
      [hashToken(token)],
    );
    return rows[0] ?? null;
  };

  app.post('/v1/arthropod/collection', async (req, reply) => {
    const who = await caller(req.headers.authorization);
    if (!who) return reply.status(401).send({ error: { code: 'unauthenticated' } });
    const b = req.body as Body;
    const survYear = Number(b.collection_date.slice(0, 4));
    const lures = b.lures ?? [];
    const record = await db.transaction(async (tx) => {
      const site = await tx.query<{ lon: number; lat: number; coordinate_precision: number }>(
        `select lon, lat, coordinate_precision from site
          where id = $1 and agency = $2 and delete_date is null`,
        [b.site, who.agency],
      );
      const place = site.rows[0];
      if (!place) return null;
      await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `trapline:collection_num:${who.agency}:${survYear}`,
      ]);
      const { rows } = await tx.query<Record<string, unknown> & { id: number }>(
        `with loc as (
           insert into location (table_name, agency, lon, lat, coordinate_precision)
           values ('collection', $1, $3, $4, $5) returning id)
         insert into collection (agency, user_id, site, location, collection_date, collection_num,
           num_trap, surv_year, trap, trap_nights)
         select $1, $2, $6, loc.id, $7,
                (select coalesce(max(collection_num), 0) + 1 from collection
                  where agency = $1 and surv_year = $8),
                $9, $8, $10, $11
           from loc
         returning *`,
        [
          who.agency,
          who.user_id,
          place.lon,
          place.lat,
          place.coordinate_precision,
          b.site,
          b.collection_date,
          survYear,
          b.num_trap,
          b.trap,
          b.trap_nights,
        ],
      );
      const c = rows[0];
      await tx.query(
        `insert into abundance (collection, agency, species, sex, num_count)
         select $1, $2, * from unnest($3::int[], $4::int[], $5::int[])`,
        [
          c.id,
          who.agency,
          b.arthropods.map((a) => a.species),
          b.arthropods.map((a) => a.sex),
          b.arthropods.map((a) => a.num_count),
        ],
      );
      if (lures.length > 0)
        await tx.query(
          `insert into record_lure (record_id, agency, lure) select $1, $2, unnest($3::int[])`,
          [c.id, who.agency, lures],
        );
      return { ...c, arthropods: b.arthropods, lures };
    });
    if (!record) return reply.status(422).send({ error: { code: 'validation_failed' } });
    return reply.status(201).send(record);
  });

  app.get('/v1/arthropod/collection', async (req, reply) => {
    const who = await caller(req.headers.authorization);
    if (!who) return reply.status(401).send({ error: { code: 'unauthenticated' } });
    const q = req.query as { page?: string; pageSize?: string };
    const size = Math.min(1000, Number(q.pageSize ?? 100));
    const offset = (Math.max(1, Number(q.page ?? 1)) - 1) * size;
    const { rows } = await db.query<{ body: string }>(
      `select json_build_object(
                'rows', coalesce(json_agg(p.r order by p.id), '[]'::json),
                'count', coalesce(max(p.total), 0))::text as body
         from (
           select c.id, count(*) over () as total,
                  to_jsonb(c) || jsonb_build_object('arthropods', coalesce((
                    select jsonb_agg(jsonb_build_object('id', a.id, 'species', a.species,
                             'sex', a.sex, 'num_count', a.num_count) order by a.id)
                      from abundance a where a.collection = c.id and a.deactive_date is null),
                    '[]'::jsonb),
                    'lures', coalesce((
                    select jsonb_agg(rl.lure order by rl.id) from record_lure rl
                     where rl.table_name = 'collection' and rl.record_id = c.id
                       and rl.deactive_date is null), '[]'::jsonb)) as r
             from collection c
            where c.agency = $1 and c.deactive_date is null
            order by c.id limit $2 offset $3) p`,
      [who.agency, size, offset],
    );
    return reply.type('application/json').send(rows[0].body);
  });
  return app;
}

/** Seeds the database, starts the chosen server, signs in and makes the site the creates use. */
async function serve(kind: 'records' | 'bare', dataDir: string): Promise<void> {
  const db = await openDatabase({ dataDir });
  await seedLookups(db);
  await seedDemoAgencies(db, { password: PASSWORD });
  const records = await buildRecords({ db });
  const app = kind === 'bare' ? buildBare(db) : records;
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  // Both sides get their token and site from the records service's own routes (on the bare
  // side, through a records app on the same database that then stops listening).
  const helper = kind === 'bare' ? await records.listen({ port: 0, host: '127.0.0.1' }) : url;
  const login = await fetch(`${helper}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo-tech', password: PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const site = await fetch(`${helper}/v1/site`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      code: '700001',
      name: 'Bench site',
      coordinate_precision: PRECISION_ID.gps,
      shape: { type: 'Point', coordinates: [-121.49, 38.58] },
    }),
  });
  const { id } = (await site.json()) as { id: number };
  if (kind === 'bare') await records.close();
  console.log(JSON.stringify({ url, token, site: id }));
  process.once('SIGTERM', () => {
    void app.close().then(async () => {
      await db.close();
      process.exit(0);
    });
  });
}

if (process.argv[2] === 'records' || process.argv[2] === 'bare') {
  await serve(process.argv[2], process.argv[3]);
}
