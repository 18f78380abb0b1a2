import { afterEach, describe, expect, it } from 'vitest';
import { createSite } from '../../../src/client/db/create-site';
import { databaseName, openUserDb, type TraplineDb } from '../../../src/client/db/database';
import { makeSite } from './factories';

const opened: TraplineDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

describe('per-user database', () => {
  it('never shows one technician the records of another on the same tablet', async () => {
    const ana = openUserDb({ agencyId: 1, username: 'ana' });
    const ben = openUserDb({ agencyId: 1, username: 'ben' });
    opened.push(ana, ben);
    await createSite(ana, makeSite({ name: "Ana's site" }));

    expect(await ana.sites.count()).toBe(1);
    expect(await ben.sites.count()).toBe(0);
    expect(await ben.outbox.count()).toBe(0);

    const anaAgain = openUserDb({ agencyId: 1, username: 'ANA' });
    opened.push(anaAgain);
    expect((await anaAgain.sites.toArray()).map((s) => s.name)).toEqual(["Ana's site"]);
  });

  it('keeps the same username in two agencies apart', () => {
    expect(databaseName({ agencyId: 1, username: 'tech' })).not.toBe(
      databaseName({ agencyId: 2, username: 'tech' }),
    );
  });
});
