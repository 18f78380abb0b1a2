import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadRecordsEnv } from './env';
import { isInt4Id } from './storable';

/*
 * Each command imports what it runs when it runs (`await import`): the records service's app
 * (Fastify, every route, the OpenAPI document) is a second of CPU to load, and a backup, a
 * restore, a token or a usage mistake needs none of it. `npm run records -- restore` refusing a
 * file that is not a backup took 1.6 CPU-s, 1.0 of it loading the server it never starts.
 */

const USAGE = `Usage:
  npm run records                                     start the records service alone
  npm run records -- agency-token create --agency <id>   print a new agency token (shown once)
  npm run records -- agency-token revoke --id <id>       revoke an agency token
  npm run records -- backup <file>                     back up the embedded databases (running or not)
  npm run records -- restore <file>                    restore a backup into an empty TRAPLINE_DATA_DIR`;

const ON_POSTGRES = `DATABASE_URL is set: Trapline's data is in that PostgreSQL database, which this command
does not copy. Back it up with PostgreSQL's own tools, e.g.
  pg_dump --format=custom --file=trapline.dump "$DATABASE_URL"
and restore into a new, empty database with
  createdb trapline_restored && pg_restore --no-owner --dbname=postgres://…/trapline_restored trapline.dump
(README, "Backups").`;

function flag(args: string[], name: string): number {
  const i = args.indexOf(`--${name}`);
  const raw = i >= 0 ? args[i + 1] : undefined;
  if (!raw || !/^\d+$/.test(raw) || !isInt4Id(Number(raw))) {
    console.error(`--${name} <positive integer> is required\n\n${USAGE}`);
    process.exit(2);
  }
  return Number(raw);
}

async function agencyToken(args: string[]): Promise<void> {
  // The arguments first: a typing mistake opens (or creates) no database.
  const sub = args[0];
  if (sub !== 'create' && sub !== 'revoke') {
    console.error(USAGE);
    process.exit(2);
  }
  const id = flag(args, sub === 'create' ? 'agency' : 'id');
  const env = loadRecordsEnv();
  const [{ openDatabase }, { issueAgencyToken, revokeAgencyToken }] = await Promise.all([
    import('../db/open-database'),
    import('./auth/tokens'),
  ]);
  if (!env.DATABASE_URL && !existsSync(join(env.TRAPLINE_DATA_DIR, 'pgdata'))) {
    // A wrong TRAPLINE_DATA_DIR (the server runs with another) would otherwise get a new, empty
    // database here and answer "No agency 1".
    console.error(
      `No Trapline database in ${resolve(env.TRAPLINE_DATA_DIR)}: set TRAPLINE_DATA_DIR (or ` +
        'DATABASE_URL) to what the running Trapline uses, or start Trapline there once first.',
    );
    process.exit(1);
  }
  const db = await openDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.TRAPLINE_DATA_DIR },
  ).catch((err: unknown) => {
    if (err instanceof Error && err.message.includes('in use by another running Trapline')) {
      err.message +=
        ' While it runs, a manager can make and revoke agency tokens through the records ' +
        'service instead: POST /v1/agency/token, DELETE /v1/agency/token/<id>.';
    }
    throw err;
  });
  try {
    if (sub === 'create') {
      const agency = id;
      const { rows } = await db.query<{ name: string }>('select name from agency where id = $1', [
        agency,
      ]);
      if (!rows[0]) {
        console.error(`No agency ${agency}`);
        process.exitCode = 1;
        return;
      }
      const issued = await issueAgencyToken(db, agency, null);
      console.log(
        `Agency token ${issued.id} for ${rows[0].name} (shown only this once; store it in a secret manager):`,
      );
      console.log(issued.token);
    } else {
      if (await revokeAgencyToken(db, id, null)) console.log(`Agency token ${id} revoked`);
      else {
        console.error(`No active agency token ${id}`);
        process.exitCode = 1;
      }
    }
  } finally {
    await db.close();
  }
}

/** `backup FILE` / `restore FILE`: exit 0 done, 1 refused or failed (nothing written), 2 usage. */
async function backupOrRestore(command: 'backup' | 'restore', args: string[]): Promise<void> {
  const [file, ...extra] = args;
  if (!file || extra.length > 0) {
    console.error(USAGE);
    process.exit(2);
  }
  const env = loadRecordsEnv();
  if (env.DATABASE_URL) {
    console.error(ON_POSTGRES);
    process.exit(2);
  }
  const [{ BackupRefusedError, takeBackup }, { restoreBackup }] = await Promise.all([
    import('./backup/take-backup'),
    import('./backup/restore-backup'),
  ]);
  try {
    if (command === 'backup') {
      const { parts } = await takeBackup(env.TRAPLINE_DATA_DIR, file);
      console.log(
        `Backed up ${describeParts(parts)} of ${resolve(env.TRAPLINE_DATA_DIR)} to ${resolve(file)}`,
      );
    } else {
      const { parts } = await restoreBackup(file, env.TRAPLINE_DATA_DIR);
      console.log(
        `Restored ${describeParts(parts)} into ${resolve(env.TRAPLINE_DATA_DIR)}; start Trapline ` +
          'with this TRAPLINE_DATA_DIR (everyone signs in once again)',
      );
    }
  } catch (err) {
    if (!(err instanceof BackupRefusedError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}

function describeParts(parts: string[]): string {
  return parts.includes('bff')
    ? "the records service's database and the BFF's (sessions, idempotency journal)"
    : "the records service's database";
}

async function serve(): Promise<void> {
  const env = loadRecordsEnv();
  const [{ describeDemoCredentials, startRecordsServer }, { closeOnSignals }] = await Promise.all([
    import('./server'),
    import('../close-on-signals'),
  ]);
  const running = await startRecordsServer(env);
  console.log(`Records service listening on ${running.url}`);
  if (running.demoCredentials) console.log(describeDemoCredentials(running.demoCredentials));
  closeOnSignals(running.close);
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === undefined) await serve();
  else if (command === 'agency-token') await agencyToken(rest);
  else if (command === 'backup' || command === 'restore') await backupOrRestore(command, rest);
  else {
    console.error(USAGE);
    process.exit(2);
  }
} catch (err) {
  // A start that cannot go on (data directory in use, database unreachable, port taken, a
  // migration refused): one line saying why, as `npm start` prints it, not a stack.
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
