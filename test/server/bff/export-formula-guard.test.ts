import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell } from '../../../src/server/bff/reports/report-csv';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * Issue 36: the CSV formula guard (a leading ' on text a spreadsheet would run) missed cells
 * that start with characters a spreadsheet skips before the formula (a space, NBSP, zero-width
 * space, BOM, line feed) and the full-width signs ＝ ＋ ＠ that some spreadsheets read as = + @.
 */

const NEAR_MISSES = {
  space: ' =HYPERLINK("http://evil.example","x")',
  nbsp: '\u00a0=1+1',
  zeroWidth: "\u200b=cmd|' /C calc'!A0",
  bom: '\ufeff@SUM(A1)',
  lineFeed: '\n-2+3',
  spacesThenPlus: '   +1 555 0100',
  fullWidthEquals: '＝1+1',
  fullWidthPlus: '＋1',
  fullWidthAt: '＠SUM(A1)',
  fullWidthMinus: '－1+1',
} as const;

const PLAIN = ['Putah Creek N', ' near the weir', 'a=b', 'email me@example.org', '5-10 m'];

describe('the formula guard on one cell', () => {
  it.each(Object.entries(NEAR_MISSES))('prefixes %s', (_name, value) => {
    expect(
      csvCell(value)
        .replace(/^"/, '')
        .startsWith(`'${value.slice(0, 1)}`),
    ).toBe(true);
  });

  it.each(PLAIN)('leaves %j as typed', (value) => {
    expect(csvCell(value)).toBe(value);
  });

  it('keeps numbers numbers, negative ones included', () => {
    expect(csvCell(-5)).toBe('-5');
  });
});

describe('GET /api/export/sites.csv with near-miss formulas in comments', () => {
  let stack: BffStack;
  let cookie: string;
  beforeAll(async () => {
    stack = await startBffStack();
    cookie = await stack.signIn('demo-manager');
    let code = 620_000;
    for (const comments of [...Object.values(NEAR_MISSES), ...PLAIN]) {
      const res = await stack.api('/api/v1/site', {
        method: 'POST',
        cookie,
        body: {
          code: String((code += 1)),
          name: `Formula probe ${code}`,
          coordinate_precision: 1,
          shape: { type: 'Point', coordinates: [-121.49, 38.58] },
          comments,
        },
      });
      expect(res.status, res.text).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('writes every one of them as text a spreadsheet shows, not a formula it runs', async () => {
    const res = await stack.api('/api/export/sites.csv', { cookie });
    expect(res.status, res.text).toBe(200);
    for (const [name, value] of Object.entries(NEAR_MISSES)) {
      // A leading BOM may not survive the trip through JSON and the database; what is left of the
      // cell must be guarded all the same.
      const spellings = [value, value.replace(/^\ufeff/, '')];
      const guarded = spellings.some(
        (v) => res.text.includes(`,'${v},`) || res.text.includes(`"'${v.replace(/"/g, '""')}"`),
      );
      expect(guarded, name).toBe(true);
      for (const v of spellings) {
        expect(
          res.text.includes(`,${v},`) || res.text.includes(`,"${v.replace(/"/g, '""')}"`),
          name,
        ).toBe(false);
      }
    }
    for (const value of PLAIN) expect(res.text, value).toContain(`,${value},`);
  });
});
