import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startRecordsServer } from '../../../../src/server/records/server';

/**
 * README "Backups", on PostgreSQL: Trapline's own backup command refuses there and says to use
 * pg_dump; this is the proof that the way it names works. A migrated database holding the demo
 * agency's records is dumped with `pg_dump --format=custom`, restored with `pg_restore
 * --no-owner` into an empty database, and the records service starts on the restore (no
 * migration left to run) holding the same schema and the same rows. Runs where
 * TRAPLINE_TEST_DATABASE_URL names a server (CI).
 */
const adminUrl = process.env.TRAPLINE_TEST_DATABASE_URL;
const run = promisify(execFile);
const created: string[] = [];
/** Made when the suite runs: with no PostgreSQL it is skipped, and its hooks with it. */
const scratch = adminUrl ? mkdtempSync(join(tmpdir(), 'trapline-pgdump-')) : '';

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function newDatabase(): Promise<string> {
  const name = `backup_drill_${randomBytes(6).toString('hex')}`;
  await admin(`create database ${name}`);
  created.push(name);
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  for (const name of created) await admin(`drop database if exists ${name} with (force)`);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The schema (every column of every table) and every row of the record tables, in order. */
async function contents(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const columns = await c.query(
      `select table_name, column_name, data_type, is_nullable, column_default
         from information_schema.columns where table_schema = 'public'
        order by table_name, ordinal_position`,
    );
    const rows: Record<string, unknown[]> = {};
    for (const table of ['agency', 'app_user', 'site', 'collection', 'pool', 'pool_test']) {
      rows[table] = (await c.query(`select * from ${table} order by id`)).rows;
    }
    const migrations = await c.query('select version, name from schema_migration order by 1');
    return { columns: columns.rows, rows, migrations: migrations.rows };
  } finally {
    await c.end();
  }
}

describe.runIf(adminUrl)('PostgreSQL: pg_dump of a migrated database restores', () => {
  it('into an empty database with the same schema and records, and Trapline starts on it', async () => {
    const source = await newDatabase();
    const seeded = await startRecordsServer(
      { RECORDS_PORT: 0, DATABASE_URL: source, TRAPLINE_DEMO_PASSWORD: 'pg-dump-drill' },
      { logger: false },
    );
    await seeded.close();
    const before = await contents(source);
    expect(before.rows.site!.length).toBeGreaterThan(10);
    expect(before.rows.collection!.length).toBeGreaterThan(10);

    const dump = join(scratch, 'trapline.dump');
    await run('pg_dump', ['--format=custom', `--file=${dump}`, source]);
    const target = await newDatabase();
    await run('pg_restore', ['--no-owner', `--dbname=${target}`, dump]);

    expect(await contents(target)).toEqual(before);
    const restored = await startRecordsServer(
      { RECORDS_PORT: 0, DATABASE_URL: target, TRAPLINE_DEMO_PASSWORD: 'pg-dump-drill' },
      { logger: false },
    );
    try {
      // Not seeded again (the agency's data is there), and its people sign in as before.
      expect(restored.demoCredentials).toBeNull();
      const login = await fetch(`${restored.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo-tech', password: 'pg-dump-drill' }),
      });
      expect(login.status).toBe(200);
    } finally {
      await restored.close();
    }
  }, 180_000);
});
