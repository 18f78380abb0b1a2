import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/server/db/open-database';

/**
 * DATABASE_URL wrong or unreachable: `npm start` prints the error's message as its one line, so
 * that line must say it is about DATABASE_URL and which server, never the password.
 */
async function refusal(url: string): Promise<string> {
  return openDatabase({ databaseUrl: url }).then(
    async (db) => {
      await db.close();
      return 'opened';
    },
    (err: Error) => err.message,
  );
}

describe('a DATABASE_URL that does not lead to a database', () => {
  it('names DATABASE_URL and the server, not the password, when nothing listens there', async () => {
    const message = await refusal('postgres://trapline:s3cret-pw@127.0.0.1:1/trapline');
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).toContain('127.0.0.1:1');
    expect(message).toContain('ECONNREFUSED');
    expect(message).not.toContain('s3cret-pw');
  });

  it.runIf(process.env.TRAPLINE_TEST_DATABASE_URL)(
    'names DATABASE_URL and the database when the database does not exist',
    async () => {
      const url = new URL(process.env.TRAPLINE_TEST_DATABASE_URL!);
      url.pathname = '/review_ops_no_such_database';
      const message = await refusal(url.toString());
      expect(message).toMatch(/DATABASE_URL/);
      expect(message).toContain('review_ops_no_such_database');
    },
  );
});
