import type { IntlShape } from 'react-intl';
import { IMPORT_COLUMNS, type ImportError } from '#shared/schemas/site-import';
import { fieldProblemWords, writeProblemWords } from './row-problem-words';

/**
 * A problem of an import file in the person's language, by its stable code (README "Importing
 * sites" lists them), with the values the server sends beside its English sentence (the earlier
 * row of a duplicate code, the precisions there are). An older server's answer without values
 * gets the sentence that needs none.
 */
export function problemWords(intl: IntlShape, e: ImportError): string {
  const t = intl.formatMessage;
  const columns = IMPORT_COLUMNS.join(', ');
  const v = e.values ?? {};
  switch (e.code) {
    case 'duplicate_code':
      return typeof v.first === 'number'
        ? t(
            {
              id: 'siteImport.problem.duplicateCodeAt',
              defaultMessage:
                'Site code {code} is also on row {first}: each site must appear once in the file',
            },
            { code: String(v.code ?? ''), first: v.first },
          )
        : t({
            id: 'siteImport.problem.duplicateCode',
            defaultMessage:
              'This site code is also on an earlier row: each site must appear once in the file',
          });
    case 'validation_failed':
      return fieldProblemWords(intl, e);
    case 'write_failed':
      return writeProblemWords(intl, e);
    case 'reserved_code':
      return t({
        id: 'siteImport.problem.reservedCode',
        defaultMessage: 'Site code 000000 belongs to the agency’s Zero Site — pick another code',
      });
    case 'wrong_column_count':
      if (typeof v.cells === 'number' && typeof v.columns === 'number')
        return t(
          {
            id: 'siteImport.problem.wrongColumnCountOf',
            defaultMessage:
              'This row has {cells, plural, one {# cell} other {# cells}} but the header has {columns, plural, one {# column} other {# columns}}: a comma in a cell needs the cell in double quotes',
          },
          { cells: v.cells, columns: v.columns },
        );
      return t({
        id: 'siteImport.problem.wrongColumnCount',
        defaultMessage:
          'This row has more or fewer cells than the header has columns: a comma in a cell needs the cell in double quotes',
      });
    case 'missing_column':
      return t(
        {
          id: 'siteImport.problem.missingColumn',
          defaultMessage:
            'The header row has no “{column}” column (the first row must name the columns: {columns})',
        },
        { column: e.field, columns },
      );
    case 'unknown_column':
      return t(
        {
          id: 'siteImport.problem.unknownColumn',
          defaultMessage:
            'The header names “{column}”, which is unknown or named twice: the columns are {columns}',
        },
        { column: e.field, columns },
      );
    case 'not_a_point':
      return t({
        id: 'siteImport.problem.notAPoint',
        defaultMessage: 'This feature is not a Point: a site is one point (longitude, latitude)',
      });
    case 'unknown_lookup':
      if (typeof v.value === 'string' && Array.isArray(v.choices))
        return t(
          {
            id: 'siteImport.problem.unknownLookupOf',
            defaultMessage:
              'Unknown coordinate precision “{value}”: use one of the agency’s precisions, by its number or its name ({choices})',
          },
          { value: v.value, choices: intl.formatList(v.choices, { type: 'disjunction' }) },
        );
      return t({
        id: 'siteImport.problem.unknownLookup',
        defaultMessage:
          'Unknown coordinate precision: use one of the agency’s precisions, by its number or its name',
      });
    case 'empty_file':
      return t({
        id: 'siteImport.problem.emptyFile',
        defaultMessage: 'The file is empty: it has no sites',
      });
    case 'not_utf8':
      return t({
        id: 'siteImport.problem.notUtf8',
        defaultMessage:
          'The file is not UTF-8 text. Save it as “CSV UTF-8” (Excel) or UTF-8 and choose it again',
      });
    case 'malformed_file':
      return t({
        id: 'siteImport.problem.malformedFile',
        defaultMessage:
          'The file cannot be read as CSV or GeoJSON: check that it was saved as one of them',
      });
    default:
      return e.message;
  }
}
