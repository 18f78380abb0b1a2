import { describe, expect, it } from 'vitest';
import type { SiteRow } from '../../../../src/client/db/database';
import { siteUsingCode } from '../../../../src/client/features/sites/site-schema';

function site(localId: string, data: Record<string, unknown>): SiteRow {
  return {
    localId,
    serverId: null,
    syncState: 'synced',
    code: '104233',
    name: `Site ${localId}`,
    data: { code: '104233', name: `Site ${localId}`, ...data },
    server: null,
    baseUpdated: null,
    parentLocalId: null,
    updatedAt: 0,
    problem: null,
  };
}

describe('site code in use (contract §6)', () => {
  it('keeps a code in use while its site has no deactive_date', () => {
    expect(siteUsingCode([site('a', {})], '104233', null, '2026-07-14')?.localId).toBe('a');
  });

  it('keeps a code in use when the old site ends on or after the new site starts', () => {
    const old = site('a', { deactive_date: '2026-08-01' });
    expect(siteUsingCode([old], '104233', null, '2026-07-14')?.localId).toBe('a');
    expect(siteUsingCode([old], '104233', null, '2026-08-01')?.localId).toBe('a');
  });

  it('frees a code for a new period starting after the old site ended', () => {
    const old = site('a', { deactive_date: '2026-06-30T00:00:00.000Z' });
    expect(siteUsingCode([old], '104233', null, '2026-07-01')).toBeNull();
  });

  it('measures a site without an active_date from today', () => {
    const endsNextYear = site('a', { deactive_date: '2999-01-01' });
    const endedLongAgo = site('b', { deactive_date: '2001-01-01' });
    expect(siteUsingCode([endsNextYear], '104233', null, undefined)?.localId).toBe('a');
    expect(siteUsingCode([endedLongAgo], '104233', null, undefined)).toBeNull();
  });
});
