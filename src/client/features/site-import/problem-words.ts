import type { IntlShape } from 'react-intl';
import { IMPORT_COLUMNS, type ImportError } from '#shared/schemas/site-import';

/**
 * A problem of an import file in the person's language, by its stable code (README "Importing
 * sites" lists them). The server's English sentence is kept where the code alone does not say
 * it: a field's validation (the shared site schema's words) and a write the records service
 * refused (its own words).
 */
export function problemWords(intl: IntlShape, e: ImportError): string {
  const t = intl.formatMessage;
  const columns = IMPORT_COLUMNS.join(', ');
  switch (e.code) {
    case 'duplicate_code': {
      // The earlier row is only in the server's sentence ("… is also on row 2: …") until the
      // report carries it as a value of its own.
      const first = /\bon row (\d+)/.exec(e.message)?.[1];
      return first
        ? t(
            {
              id: 'siteImport.problem.duplicateCodeAt',
              defaultMessage:
                'Site code {code} is also on row {first}: each site must appear once in the file',
            },
            { code: /^Site code (\S+)/.exec(e.message)?.[1] ?? '', first: Number(first) },
          )
        : t({
            id: 'siteImport.problem.duplicateCode',
            defaultMessage:
              'This site code is also on an earlier row: each site must appear once in the file',
          });
    }
    case 'reserved_code':
      return t({
        id: 'siteImport.problem.reservedCode',
        defaultMessage: 'Site code 000000 belongs to the agency’s Zero Site — pick another code',
      });
    case 'wrong_column_count':
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
