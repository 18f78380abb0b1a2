import { describe, expect, it } from 'vitest';
import { failureWords } from '../../../../src/client/features/site-import/failure-words';
import { problemWords } from '../../../../src/client/features/site-import/problem-words';
import { english, makeIntl } from '../../../../src/client/lib/i18n';
import { loadCatalogue } from '../../../../src/client/lib/i18n/catalogues';
import type { ImportError } from '../../../../src/shared/schemas/site-import';
import { PSEUDO_MARK, pseudoLocalise } from '../../languages/pseudo-locale';

/**
 * A site file's problems as the BFF lists them (test/server/bff/site-import.test.ts asks the
 * real BFF for these), said to a Spanish-speaking manager from the catalogues: the server's
 * English sentence never reaches the screen when the problem has a code and values.
 */
const PROBLEMS: ImportError[] = [
  {
    row: 3,
    field: 'latitude',
    code: 'validation_failed',
    message:
      'Latitude -121.5 is outside -90..90: the latitude and longitude columns look swapped (latitude 38.5, longitude -121.5?)',
    problem: 'coordinates_swapped',
    values: { latitude: -121.5, longitude: 38.5 },
  },
  {
    row: 4,
    field: 'coordinate_precision',
    code: 'unknown_lookup',
    message: 'Unknown coordinate precision "Satellite": use one of 1 "GPS", 2 "Map"',
    values: { value: 'Satellite', choices: ['1 “GPS”', '2 “Map”'] },
  },
  {
    row: 5,
    field: 'code',
    code: 'duplicate_code',
    message: 'Site code 300401 is also on row 2: each site must appear once in the file',
    values: { code: '300401', first: 2 },
  },
  {
    row: 6,
    field: 'latitude',
    code: 'validation_failed',
    message: 'Latitude "38°30\'N" is not a number: write decimal degrees, like 38.58',
    problem: 'not_a_number',
    values: { column: 'latitude', value: "38°30'N", example: '38.58' },
  },
  {
    row: 7,
    field: 'code',
    code: 'validation_failed',
    message: 'Site code "1234" has fewer than 6 digits: …',
    problem: 'code_short',
    values: { code: '1234', padded: '001234' },
  },
  {
    row: 8,
    field: 'name',
    code: 'validation_failed',
    message: 'Name is required',
    problem: 'required',
    values: { column: 'name' },
  },
  {
    row: 9,
    field: 'code',
    code: 'validation_failed',
    message: 'Site code "12345a" must be exactly 6 digits',
    problem: 'code_digits',
    values: { code: '12345a' },
  },
  {
    row: 10,
    field: 'deactive_date',
    code: 'validation_failed',
    message: 'The deactive date is before the active date',
  },
  {
    row: 11,
    field: '(row)',
    code: 'wrong_column_count',
    message: 'Row 11 has 3 cells but the header has 8 columns: …',
    values: { cells: 3, columns: 8 },
  },
  {
    row: 12,
    field: '(row)',
    code: 'write_failed',
    message:
      'The records service refused row 12: Site code must be exactly 6 digits. 4 sites were …',
    problem: 'write_refused',
    values: { written: 4, reason: 'Site code must be exactly 6 digits' },
  },
  {
    row: 13,
    field: '(row)',
    code: 'write_failed',
    message: 'The records service refused row 13: your sign-in has expired (…). 1 site was …',
    problem: 'write_reauth',
    values: { written: 1 },
  },
];

describe('a site file’s problems in Spanish', () => {
  it('says each one from the catalogue with the values the server sent', async () => {
    const intl = makeIntl('es', await loadCatalogue('es'));
    expect(PROBLEMS.map((e) => problemWords(intl, e))).toEqual([
      'La latitud -121.5 está fuera de -90 a 90: parece que las columnas de latitud y longitud están invertidas (¿latitud 38.5, longitud -121.5?)',
      'Precisión de coordenadas desconocida: “Satellite”. Usa una de las precisiones de la agencia, por su número o su nombre (1 “GPS” o 2 “Map”)',
      'El código de sitio 300401 también está en la fila 2: cada sitio debe aparecer una sola vez en el archivo',
      "La latitud “38°30'N” no es un número: escríbela en grados decimales, como 38.58",
      'El código de sitio “1234” tiene menos de 6 dígitos: las hojas de cálculo quitan los ceros a la izquierda, así que da formato de texto a la columna (p. ej., 001234)',
      'La celda “name” está vacía: todo sitio la necesita',
      'El código de sitio “12345a” debe tener exactamente 6 dígitos',
      'La fecha “activo hasta” es anterior a la fecha “activo desde”',
      'Esta fila tiene 3 celdas, pero el encabezado tiene 8 columnas: una coma dentro de una celda necesita la celda entre comillas dobles',
      'El servicio de registros rechazó esta fila: El código de sitio debe tener exactamente 6 dígitos. Se guardaron 4 sitios antes de que la importación se detuviera; importa el mismo archivo otra vez para terminar (las filas ya guardadas cuentan entonces como sin cambios)',
      'Tu sesión expiró mientras se guardaban los sitios: se guardó 1 sitio antes de que la importación se detuviera. Vuelve a entrar e importa el mismo archivo otra vez para terminar (las filas ya guardadas cuentan entonces como sin cambios)',
    ]);
  });

  it('leaves no English sentence of the server on screen (pseudo-locale)', () => {
    const intl = makeIntl('en-XA', pseudoLocalise(english));
    for (const e of PROBLEMS) {
      const said = problemWords(intl, e);
      expect(said, e.message).toMatch(PSEUDO_MARK);
      expect(said).not.toContain(e.message);
    }
  });

  it('names the earlier row of a duplicate code from its value, whatever the sentence says', async () => {
    const intl = makeIntl('es', await loadCatalogue('es'));
    const said = problemWords(intl, {
      row: 9,
      field: 'code',
      code: 'duplicate_code',
      message: 'Duplicate of an earlier row',
      values: { code: '300401', first: 4 },
    });
    expect(said).toBe(
      'El código de sitio 300401 también está en la fila 4: cada sitio debe aparecer una sola vez en el archivo',
    );
  });

  it('says an import stopped partway by a refused write in Spanish, above the row that says why', async () => {
    const intl = makeIntl('es', await loadCatalogue('es'));
    const refused = PROBLEMS.find((e) => e.problem === 'write_refused')!;
    const said = failureWords(
      intl,
      {
        kind: 'server',
        error: { code: 'validation_failed', message: refused.message },
      },
      { rows: 20, created: 4, updated: 0, unchanged: 0, errors: [refused] },
    );
    expect(said).toBe(
      'La importación se detuvo a medias. La tabla de abajo dice en qué fila y por qué; importa el mismo archivo otra vez para terminar.',
    );
  });
});
