import { describe, expect, it } from 'vitest';
import { SITE_CODE } from '../../../../src/shared';
import { createSite } from '../../../../src/client/db/create-site';
import { nextSiteCode } from '../../../../src/client/features/sites/next-site-code';
import { proposedSiteCode } from '../../../../src/client/features/sites/proposed-site-code';
import { makeDb, makeSite } from '../../db/factories';

/**
 * New site's proposal is read from the top of the code index only (proposed-site-code.ts): it
 * must be what nextSiteCode makes of every code on the tablet, whatever lies above the highest
 * 6-digit code (older systems' codes, 7-digit typos), deleted sites and a full series included.
 */
async function tabletWith(codes: string[], deleted: string[] = []) {
  const db = makeDb();
  for (const code of [...codes, ...deleted]) {
    const sixDigits = SITE_CODE.test(code);
    const localId = await createSite(
      db,
      makeSite({ code: sixDigits ? code : '100000', name: `Site ${code}` }),
    );
    // Older systems' codes come only from the server (the form takes 6 digits): stored as pulled.
    if (!sixDigits) await db.sites.update(localId, { code });
    // As a synced site's delete leaves it until the server has it: the row, marked deleted.
    if (deleted.includes(code)) await db.sites.update(localId, { deleted: true });
  }
  return db;
}

const cases: Array<[string, string[], string[]?]> = [
  ['an empty tablet', []],
  ['the Zero Site alone', ['000000']],
  ['legacy codes only', ['ZERO', 'B-17', 'A100']],
  ['a series with gaps', ['100001', '100005', '100003', '000000']],
  [
    'codes above the highest 6-digit one',
    ['104233', '9999999', 'ZZ-9', 'A-1200', '99999', '20000O'],
  ],
  ['the highest code on a deleted site', ['104233'], ['104240']],
  ['the series full at the top, a gap below', ['999999', '000000', '000001', '000003', '500000']],
  ['999999 deleted, still taken', ['000001'], ['999999']],
];

describe('new site: the code proposed from the top of the code index', () => {
  for (const [label, codes, deleted = []] of cases)
    it(`is nextSiteCode of every code: ${label}`, async () => {
      const db = await tabletWith(codes, deleted);
      const every = (await db.sites.toArray()).map((s) => s.code);
      expect(every.sort()).toEqual([...codes, ...deleted].sort());
      expect(await proposedSiteCode(db)).toBe(nextSiteCode(every));
    });
});
