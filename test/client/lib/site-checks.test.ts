import { describe, expect, it } from 'vitest';
import { withStoredSite } from '../../../src/client/db/use-site-checks';
import {
  CHECKS_PER_MESSAGE,
  applyChecks,
  checksMessages,
  joinChecks,
  type SiteCheck,
} from '../../../src/client/lib/site-check';
import { siteUsingCode } from '../../../src/client/features/sites/site-schema';
import { SiteIndexCore, type SiteRecordLike } from '../../../src/client/lib/site-index-core';

/**
 * What the site index hands the site form (SiteCheck): every site not deleted, placed or not,
 * cut to the fields the form's code and place checks read, and new whenever one of those changes.
 * Look-alike sites on purpose: one code reused by a later revision, two sites without a place.
 */
const row = (
  over: Partial<SiteRecordLike> & { localId: string; code: string },
): SiteRecordLike => ({
  name: `Pond ${over.code}`,
  syncState: 'synced',
  createdAt: Date.parse('2026-01-01T00:00:00Z'),
  data: {
    shape: { type: 'Point', coordinates: [-121.7, 38.55] },
    comments: 'long notes the form never reads',
  },
  server: { id: 1, add_date: '2025-03-01T00:00:00Z', updated: '2026-01-02T00:00:00Z' },
  ...over,
});

describe('the site index: what the site form checks against', () => {
  const rows = [
    // The 2024 revision of 104233, closed at the end of 2025 in the office (server only).
    row({
      localId: 'old',
      code: '104233',
      server: { id: 7, deactive_date: '2025-12-31', add_date: '2024-01-01T00:00:00Z' },
    }),
    // Its 2026 revision, same code, same place.
    row({ localId: 'new', code: '104233', data: { active_date: '2026-01-01' } }),
    row({ localId: 'unplaced', code: '104234', data: {} }),
    row({ localId: 'unplaced-too', code: '104235', data: { shape: null } }),
    row({ localId: 'gone', code: '104236', deleted: true }),
  ];

  it('holds every site not deleted, placed or not, with only what the checks read', () => {
    const index = new SiteIndexCore();
    index.load(rows);
    const checks = index.checks();
    expect(checks.map((c) => c.localId).sort()).toEqual(['new', 'old', 'unplaced', 'unplaced-too']);
    const old = checks.find((c) => c.localId === 'old');
    expect(old).toEqual({
      localId: 'old',
      code: '104233',
      name: 'Pond 104233',
      createdAt: Date.parse('2026-01-01T00:00:00Z'),
      data: { shape: { type: 'Point', coordinates: [-121.7, 38.55] } },
      server: { deactive_date: '2025-12-31', add_date: '2024-01-01T00:00:00Z' },
    });
  });

  it('answers the form as the stored rows would: the code is in use by the open revision only', () => {
    const index = new SiteIndexCore();
    index.load(rows);
    const byChecks = (activeDate: string) =>
      siteUsingCode(index.checks(), '104233', null, activeDate)?.localId ?? null;
    // The rows as the form read them from IndexedDB: in key (localId) order.
    const stored = rows.filter((r) => !r.deleted).sort((a, b) => (a.localId < b.localId ? -1 : 1));
    const byRows = (activeDate: string) =>
      siteUsingCode(stored as never, '104233', null, activeDate)?.localId ?? null;
    for (const day of ['2023-06-01', '2025-06-01', '2026-06-01', '2030-01-01'])
      expect(byChecks(day)).toBe(byRows(day));
    expect(byChecks('2030-01-01')).toBe('new');
    expect(siteUsingCode(index.checks(), '104236', null, '2026-06-01')).toBeNull();
  });

  it('is new when only a date changed (the map shows the same)', () => {
    const index = new SiteIndexCore();
    index.load(rows);
    const version = index.version;
    const closed = rows.map((r) =>
      r.localId === 'new' ? { ...r, data: { ...r.data, deactive_date: '2026-09-30' } } : r,
    );
    expect(index.load(closed)).toEqual(['new']);
    expect(index.version).toBe(version + 1);
    expect(index.checks().find((c) => c.localId === 'new')?.data.deactive_date).toBe('2026-09-30');
    // Nothing the form or the map reads changed: the same index.
    const noted = closed.map((r) =>
      r.localId === 'new' ? { ...r, data: { ...r.data, comments: 'fence mended' } } : r,
    );
    expect(index.load(noted)).toEqual([]);
    expect(index.version).toBe(version + 1);
  });

  it('names exactly the sites changed in what the map or the form reads, among look-alikes', () => {
    // Three sites one code apart, one name, one place: a change to one must not be taken for
    // another's, and a change nothing reads (comments, updated) is no change.
    const twins = ['a', 'b', 'c'].map((id, i) =>
      row({ localId: id, code: `20000${i}`, name: 'Twin Slough' }),
    );
    const index = new SiteIndexCore();
    expect(index.load(twins)).toEqual(['a', 'b', 'c']);
    const change = (id: string, over: (r: SiteRecordLike) => Partial<SiteRecordLike>) =>
      twins.map((r) => (r.localId === id ? { ...r, ...over(r) } : r));
    const cases: [string, SiteRecordLike[], string[]][] = [
      // Moved a ten-millionth of a degree.
      [
        'moved',
        change('b', (r) => ({
          data: { ...r.data, shape: { type: 'Point', coordinates: [-121.7, 38.5500001] } },
        })),
        ['b'],
      ],
      [
        'the server added it on another day',
        change('c', (r) => ({ server: { ...r.server, add_date: '2025-03-02T00:00:00Z' } })),
        ['c'],
      ],
      [
        'made at another moment',
        change('a', () => ({ createdAt: Date.parse('2026-01-01T00:00:01Z') })),
        ['a'],
      ],
      ['the server copy gone', change('a', () => ({ server: null })), ['a']],
      ['its shape dropped', change('b', () => ({ data: {} })), ['b']],
      ['sent (its state)', change('c', () => ({ syncState: 'queued' })), ['c']],
      ['recoded', change('b', () => ({ code: '200009' })), ['b']],
      [
        'only its notes and update time',
        change('a', (r) => ({
          data: { ...r.data, comments: 'gate locked' },
          server: { ...r.server, updated: '2026-02-02T00:00:00Z' },
        })),
        [],
      ],
      ['deleted', change('b', () => ({ deleted: true })), ['b']],
      [
        'a fourth twin added',
        [...twins, row({ localId: 'd', code: '200003', name: 'Twin Slough' })],
        ['d'],
      ],
    ];
    for (const [what, rows, changed] of cases) {
      const fresh = new SiteIndexCore();
      fresh.load(twins);
      expect(fresh.load(rows), what).toEqual(changed);
      expect(fresh.version, what).toBe(changed.length > 0 ? 2 : 1);
      // And back again: the same sites are named.
      expect(fresh.load(twins), `${what}, undone`).toEqual(changed);
    }
  });

  it('takes a site as stored now over the index’s copy, a moment after it was saved', () => {
    const index = new SiteIndexCore();
    index.load(rows);
    const checks = index.checks();
    // Just made (New collection here): not read by the index yet, and it looks like 104234.
    const fresh = row({ localId: 'fresh', code: '104237', name: 'Pond 104234' });
    expect(withStoredSite(checks, fresh).map((c) => c.localId)).toContain('fresh');
    // Just edited: the stored dates win over the index's.
    const edited = { ...rows[1], data: { active_date: '2026-01-01', deactive_date: '2026-03-31' } };
    const merged = withStoredSite(checks, edited);
    expect(merged.filter((c) => c.localId === 'new')).toHaveLength(1);
    expect(merged.find((c) => c.localId === 'new')?.data.deactive_date).toBe('2026-03-31');
    // Just deleted: gone, as from the index.
    expect(
      withStoredSite(checks, { ...rows[2], deleted: true }).map((c) => c.localId),
    ).not.toContain('unplaced');
    expect(withStoredSite(checks, null)).toEqual(checks);
  });

  it('brings a form’s checks up to date with only what changed, exactly as a full answer', () => {
    const index = new SiteIndexCore();
    index.load(rows);
    const first = index.checksSince(null);
    expect('all' in first).toBe(true);
    let held: SiteCheck[] = applyChecks([], first);
    let version = first.version;
    // A drain's and a pull's changes, one load each, look-alikes on purpose.
    const steps: SiteRecordLike[][] = [];
    let now = rows;
    const step = (change: (r: SiteRecordLike[]) => SiteRecordLike[]) => {
      now = change(now);
      steps.push(now);
    };
    // The 2026 revision acknowledged: the server's copy arrives (its add_date now counts).
    step((r) =>
      r.map((x) =>
        x.localId === 'new'
          ? { ...x, syncState: 'synced', server: { id: 8, add_date: '2026-01-02' } }
          : x,
      ),
    );
    // A third revision of 104233, whose id sorts between the other two.
    step((r) => [
      ...r,
      row({ localId: 'nex', code: '104233', data: { active_date: '2027-01-01' } }),
    ]);
    // The office closes the 2026 revision; an unplaced site is deleted; a deleted one comes back.
    step((r) =>
      r
        .map((x) =>
          x.localId === 'new' ? { ...x, data: { ...x.data, deactive_date: '2026-12-31' } } : x,
        )
        .map((x) => (x.localId === 'unplaced' ? { ...x, deleted: true } : x))
        .map((x) => (x.localId === 'gone' ? { ...x, deleted: false } : x)),
    );
    for (const next of steps) {
      expect(index.load(next).length).toBeGreaterThan(0);
      const answer = index.checksSince(version);
      expect('all' in answer).toBe(false);
      held = applyChecks(held, answer);
      version = answer.version;
      expect(held).toEqual(index.checks());
      for (const day of ['2025-06-01', '2026-06-01', '2026-12-31', '2027-06-01'])
        expect(siteUsingCode(held, '104233', null, day)?.localId ?? null).toBe(
          siteUsingCode(index.checks(), '104233', null, day)?.localId ?? null,
        );
    }
    expect(siteUsingCode(held, '104236', null, '2026-06-01')?.localId).toBe('gone');
    // A form that missed two versions gets both at once; the delta is the ids changed, not all.
    const behind = index.checksSince(version - 2);
    expect('all' in behind).toBe(false);
    if (!('all' in behind)) expect(behind.changed.length + behind.removed.length).toBeLessThan(6);
  });

  it('sends every check to a form too far behind, or holding another index’s', () => {
    const index = new SiteIndexCore();
    index.load(rows);
    const start = index.version;
    for (let i = 0; i < 40; i += 1)
      index.load(rows.map((r) => (r.localId === 'new' ? { ...r, name: `Pond, visit ${i}` } : r)));
    expect('all' in index.checksSince(start)).toBe(true);
    expect('all' in index.checksSince(index.version - 1)).toBe(false);
    expect('all' in index.checksSince(index.version + 5)).toBe(true);
    const same = index.checksSince(index.version);
    expect(same).toEqual({ version: index.version, changed: [], removed: [] });
  });

  it('crosses to the page in parts a task each can take, and arrives whole and in order', () => {
    // 2,500 look-alike sites: one code for every ten, as revisions of a site reuse theirs.
    const many = Array.from({ length: 2_500 }, (_, i) =>
      row({
        localId: `s${String(i).padStart(5, '0')}`,
        code: String(200_000 + Math.floor(i / 10)),
      }),
    );
    const index = new SiteIndexCore();
    index.load(many);
    const answer = index.checksSince(null);
    const messages = checksMessages(7, answer);
    expect(messages.map((m) => m.type)).toEqual(['checksPart', 'checksPart', 'answer']);
    for (const m of messages) {
      const size = m.type === 'checksPart' ? m.checks.length : 0;
      expect(size).toBeLessThanOrEqual(CHECKS_PER_MESSAGE);
    }
    const parts = messages.flatMap((m) => (m.type === 'checksPart' ? [m.checks] : []));
    const last = messages.at(-1)!;
    expect(last.type === 'answer' && joinChecks(parts, last.result as never)).toEqual(answer);
    // A pull bringing 1,500 new sites whose ids fall between the held ones, and dropping 300:
    // brought up to date in one merge, exactly the index's own checks.
    const held = applyChecks([], answer);
    const grown = [
      ...many.filter((_, i) => i % 8 !== 0),
      ...Array.from({ length: 1_500 }, (_, i) =>
        row({ localId: `s${String(i * 2).padStart(5, '0')}x`, code: String(300_000 + (i % 40)) }),
      ),
    ];
    index.load(grown);
    const bulk = index.checksSince(answer.version);
    expect('all' in bulk).toBe(false);
    const heldGrown = applyChecks(held, bulk);
    expect(heldGrown).toEqual(index.checks());
    // And back: the 1,500 gone, the 300 returned.
    index.load(many);
    const back = index.checksSince(bulk.version);
    expect('all' in back).toBe(false);
    expect(applyChecks(heldGrown, back)).toEqual(index.checks());
    expect(applyChecks(heldGrown, back)).toEqual(held);
    // A small change crosses in its answer alone.
    index.load(many.map((r, i) => (i === 1_234 ? { ...r, name: 'Renamed' } : r)));
    expect(checksMessages(8, index.checksSince(index.version - 1)).map((m) => m.type)).toEqual([
      'answer',
    ]);
  });
});
