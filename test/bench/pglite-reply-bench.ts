/**
 * The records service's statements on PGlite: the CPU a large result costs on the thread that
 * owns the database, read by the service's prepared path (src/server/db/pglite-prepared.ts, which
 * reads the raw reply with protocol-reply.ts) against the reference of PGlite's own parser
 * (`execProtocolStream`, what the prepared path used before), for the same prepared statement
 * and the same Bind/Execute/Sync, in the same run, rounds alternating.
 *
 * Why it matters: the records service answers one statement at a time, so a statement's CPU is
 * what every other user's request waits behind while a report or a first pull reads pages (issue
 * 36: another user's wait during the worst report). The rows are shaped like a list page of
 * collections: 3,000 rows (1,000 collections' abundance rows, or 3,000 sites of a first pull)
 * of ints, dates, floats, text with accents, and nulls.
 */
import { PGlite } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import { preparedStatements } from '../../src/server/db/pglite-prepared';
import type { BenchRow } from './run';

const ROWS = 3_000;
const ROUNDS = 7;
const PAGES_PER_ROUND = 20;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchPgliteReply(): Promise<BenchRow[]> {
  const pg = await PGlite.create();
  try {
    await pg.exec(`create table page (id serial primary key, agency int, site int,
      collection_date timestamptz, label text, comments text, num_count int, lat float8,
      lon float8, trap_code text, active boolean)`);
    await pg.exec(`insert into page (agency, site, collection_date, label, comments, num_count,
        lat, lon, trap_code, active)
      select 1, g % 40, timestamptz '2026-07-01' - (g || ' hours')::interval, 'Peña ' || g,
        case when g % 3 = 0 then null else 'trap knocked over, flooded basin' end, g,
        38.5 + g / 1e5, -121.4, 'CDC-' || (g % 12), g % 2 = 0
      from generate_series(1, ${ROWS}) g`);
    const sql = 'select * from page where id > $1 order by id';

    const prepared = preparedStatements(pg);
    // The reference: the same text prepared under its own name, run by PGlite's own parser.
    const name = 'bench_reference';
    await pg.execProtocolStream(
      Buffer.concat([
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const bindExecute = Buffer.concat([
      serialize.bind({ statement: name, values: ['0'] }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    const reference = async () => {
      const messages = await pg.execProtocolStream(bindExecute, { syncToFs: false });
      const rows = messages.filter((m) => m.name === 'dataRow').length;
      if (rows !== ROWS) throw new Error(`reference read ${rows} rows`);
    };
    const service = async () => {
      const { rows } = await prepared.query(sql, [0], true);
      if (rows.length !== ROWS) throw new Error(`prepared path read ${rows.length} rows`);
    };
    await reference();
    await service();

    const refMs: number[] = [];
    const ownMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let t = cpuMs();
      for (let i = 0; i < PAGES_PER_ROUND; i++) await reference();
      refMs.push((cpuMs() - t) / PAGES_PER_ROUND);
      t = cpuMs();
      for (let i = 0; i < PAGES_PER_ROUND; i++) await service();
      ownMs.push((cpuMs() - t) / PAGES_PER_ROUND);
    }
    const ref = median(refMs);
    const own = median(ownMs);
    const rounds = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
    return [
      {
        name: `PGlite reply, ${ROWS.toLocaleString('en-US')}-row page: the records service's prepared path`,
        value: own,
        unit: 'ms CPU',
        note: `rows as objects, types parsed; rounds: ${rounds(ownMs)}`,
      },
      {
        name: `PGlite reply, ${ROWS.toLocaleString('en-US')}-row page: PGlite's own parser (reference)`,
        value: ref,
        unit: 'ms CPU',
        note: `messages only, no row objects; rounds: ${rounds(refMs)}`,
      },
      {
        name: 'PGlite reply: prepared path / reference',
        value: own / ref,
        unit: 'x',
        goal: { atMost: 0.5 },
        note: 'the thread every other request waits behind is busy this share of the time it was',
      },
    ];
  } finally {
    await pg.close();
  }
}
