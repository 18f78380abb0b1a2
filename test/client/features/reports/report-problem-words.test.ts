import { describe, expect, it } from 'vitest';
import { pickerErrors } from '../../../../src/client/features/reports/report-pickers';
import {
  refusalSummary,
  reportProblemWords,
} from '../../../../src/client/features/reports/report-problem-words';
import { english, makeIntl } from '../../../../src/client/lib/i18n';
import { loadCatalogue } from '../../../../src/client/lib/i18n/catalogues';
import type { FieldError } from '../../../../src/shared/schemas/error';
import { PSEUDO_MARK, pseudoLocalise } from '../../languages/pseudo-locale';

/**
 * The BFF's 422 for a report's parameters, as test/server/bff/report-params.test.ts and
 * report-bounds.test.ts get it from the real BFF: each field with its problem and values.
 */
const REFUSED: FieldError[] = [
  {
    path: 'speceis',
    message: 'Unknown parameter',
    problem: 'unknown_parameter',
    values: { parameter: 'speceis' },
  },
  {
    path: 'trap',
    message: 'At most 100 values',
    problem: 'too_many_values',
    values: { max: 100 },
  },
  {
    path: 'species',
    message: 'No species is called "aa", "ab" and 2 more: use the names the lookups show (…)',
    problem: 'unknown_names',
    values: { names: ['aa', 'ab'], more: 2 },
  },
  {
    path: 'trap',
    message: 'No trap is called "XYZ": use the names the lookups show (e.g. "CO2")',
    problem: 'unknown_names',
    values: { names: ['XYZ'], more: 0 },
  },
  {
    path: 'trapnight_max',
    message: 'Must be at least trapnight_min',
    problem: 'trapnights_order',
    values: { min: 3 },
  },
  {
    path: 'year',
    message: 'Too big: expected number to be <=2200',
    problem: 'above_max',
    values: { max: 2200 },
  },
  {
    path: 'trapnight_min',
    message: 'Too small: expected number to be >=1',
    problem: 'below_min',
    values: { min: 1 },
  },
  { path: 'interval', message: 'Invalid option: expected one of …', problem: 'invalid_value' },
];
const OVER_BUDGET: FieldError[] = ['year', 'species'].map((path) => ({
  path,
  message: 'Together these make 61,236 rows, more than the 50,000 a report may have',
  problem: 'too_many_rows',
  values: { rows: 61236, budget: 50000 },
}));

describe('a refused report in Spanish', () => {
  it('says each parameter’s problem from the catalogue with the server’s values', async () => {
    const intl = makeIntl('es', await loadCatalogue('es'));
    expect(REFUSED.map((f) => reportProblemWords(intl, f))).toEqual([
      'Ningún informe acepta “speceis”',
      'Elige como máximo 100',
      'Ninguna especie se llama “aa” o “ab” (y 2 más): elige de la lista',
      'Ningún tipo de trampa se llama “XYZ”: elige de la lista',
      'Debe ser al menos el número mínimo de noches-trampa (3)',
      'Debe ser como máximo 2200',
      'Debe ser al menos 1',
      'Este valor no lo acepta el informe',
    ]);
  });

  it('gives the row budget in the banner and beside each picker, in Spanish numbers', async () => {
    const intl = makeIntl('es', await loadCatalogue('es'));
    expect(refusalSummary(intl, 'This report would have 61,236 rows; …', OVER_BUDGET)).toBe(
      'Este informe tendría 61.236 filas; un informe tiene como máximo 50.000. Pide menos años, especies o trampas, un intervalo más largo, o separa por menos etiquetas',
    );
    expect(pickerErrors(OVER_BUDGET, (f) => reportProblemWords(intl, f))).toEqual({
      years: 'Juntas dan 61.236 filas, más de las 50.000 que puede tener un informe',
      species: 'Juntas dan 61.236 filas, más de las 50.000 que puede tener un informe',
    });
    expect(refusalSummary(intl, 'These report parameters are not valid: trap', REFUSED)).toBe(
      'Con estas opciones no se puede hacer un informe',
    );
  });

  it('leaves no English sentence of the server on screen (pseudo-locale)', () => {
    const intl = makeIntl('en-XA', pseudoLocalise(english));
    for (const f of [...REFUSED, ...OVER_BUDGET]) {
      const said = reportProblemWords(intl, f);
      expect(said, f.message).toMatch(PSEUDO_MARK);
      expect(said).not.toContain(f.message);
    }
    expect(refusalSummary(intl, 'This report would have …', OVER_BUDGET)).toMatch(PSEUDO_MARK);
  });

  it('keeps the server’s words from a server that sends no problem codes', async () => {
    const intl = makeIntl('es', await loadCatalogue('es'));
    const old = { path: 'trap', message: 'At most 100 values' };
    expect(reportProblemWords(intl, old)).toBe('At most 100 values');
    expect(refusalSummary(intl, 'These report parameters are not valid: trap', [old])).toBe(
      'These report parameters are not valid: trap',
    );
  });
});
