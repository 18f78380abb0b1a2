import { describe, expect, it } from 'vitest';
import { csvCell, reportCsv } from '../../../../src/server/bff/reports/report-csv';

describe('report CSV cells', () => {
  it("writes numbers with R's 15 significant digits, as vectorsurvR's CSV has them", () => {
    // What the R rounding of -15.555 and 233.325 leave in a double, and JavaScript prints in full.
    expect(csvCell(-15.559999999999999)).toBe('-15.56');
    expect(csvCell(233.32999999999998)).toBe('233.33');
    expect(csvCell(12.6667)).toBe('12.6667');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(1e-7)).toBe('1e-7');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('keeps a negative number a number and guards text that a spreadsheet would run', () => {
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell('-3')).toBe("'-3");
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('Cx tarsalis, female')).toBe('"Cx tarsalis, female"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  });

  it('writes the header and one CRLF line per row', () => {
    const csv = reportCsv({
      columns: ['Year', 'Delta'],
      rows: [{ Year: 2026, Delta: -15.559999999999999 }],
    } as never);
    expect(csv).toBe('Year,Delta\r\n2026,-15.56\r\n');
  });
});
