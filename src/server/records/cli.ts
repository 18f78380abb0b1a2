import { openDatabase } from '../db/open-database';
import { loadRecordsEnv } from './env';
import { describeDemoCredentials, startRecordsServer } from './server';
import { issueAgencyToken, revokeAgencyToken } from './auth/tokens';

const USAGE = `Usage:
  npm run records                                     start the records service alone
  npm run records -- agency-token create --agency <id>   print a new agency token (shown once)
  npm run records -- agency-token revoke --id <id>       revoke an agency token`;

function flag(args: string[], name: string): number {
  const i = args.indexOf(`--${name}`);
  const raw = i >= 0 ? args[i + 1] : undefined;
  if (!raw || !/^\d+$/.test(raw) || Number(raw) < 1) {
    console.error(`--${name} <positive integer> is required\n\n${USAGE}`);
    process.exit(2);
  }
  return Number(raw);
}

async function agencyToken(args: string[]): Promise<void> {
  const env = loadRecordsEnv();
  const db = await openDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.TRAPLINE_DATA_DIR },
  );
  try {
    if (args[0] === 'create') {
      const agency = flag(args, 'agency');
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
    } else if (args[0] === 'revoke') {
      const id = flag(args, 'id');
      if (await revokeAgencyToken(db, id, null)) console.log(`Agency token ${id} revoked`);
      else {
        console.error(`No active agency token ${id}`);
        process.exitCode = 1;
      }
    } else {
      console.error(USAGE);
      process.exitCode = 2;
    }
  } finally {
    await db.close();
  }
}

async function serve(): Promise<void> {
  const env = loadRecordsEnv();
  const running = await startRecordsServer(env);
  console.log(`Records service listening on ${running.url}`);
  if (running.demoCredentials) console.log(describeDemoCredentials(running.demoCredentials));
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

const [command, ...rest] = process.argv.slice(2);
if (command === undefined) await serve();
else if (command === 'agency-token') await agencyToken(rest);
else {
  console.error(USAGE);
  process.exit(2);
}
