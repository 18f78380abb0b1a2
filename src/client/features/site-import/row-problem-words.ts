import type { IntlShape } from 'react-intl';
import type { ImportError } from '#shared/schemas/site-import';
import { translateRule } from '../../lib/i18n';

/**
 * A row's `validation_failed` in the person's language: by the problem the BFF words itself
 * (IMPORT_PROBLEMS) and its values; a field the shared site schema refused is said by the
 * schema rule's own wording (translateRule), as the site form says it.
 */
export function fieldProblemWords(intl: IntlShape, e: ImportError): string {
  const t = intl.formatMessage;
  const v = e.values ?? {};
  switch (e.problem) {
    case 'required':
      return t(
        {
          id: 'siteImport.problem.required',
          defaultMessage: 'The “{column}” cell is empty: every site needs it',
        },
        { column: String(v.column ?? e.field) },
      );
    case 'not_a_number':
      return t(
        {
          id: 'siteImport.problem.notANumber',
          defaultMessage:
            '{column, select, latitude {Latitude} other {Longitude}} “{value}” is not a number: write decimal degrees, like {example}',
        },
        { column: String(v.column), value: String(v.value), example: String(v.example) },
      );
    case 'code_short':
      return t(
        {
          id: 'siteImport.problem.codeShort',
          defaultMessage:
            'Site code “{code}” has fewer than 6 digits: spreadsheets drop leading zeros, so format the column as text (e.g. {padded})',
        },
        { code: String(v.code), padded: String(v.padded) },
      );
    case 'code_digits':
      return t(
        {
          id: 'siteImport.problem.codeDigits',
          defaultMessage: 'Site code “{code}” must be exactly 6 digits',
        },
        { code: String(v.code) },
      );
    case 'coordinates_swapped':
      return t(
        {
          id: 'siteImport.problem.coordinatesSwapped',
          defaultMessage:
            'Latitude {latitude} is outside -90 to 90: the latitude and longitude columns look swapped (latitude {longitude}, longitude {latitude}?)',
        },
        { latitude: String(v.latitude), longitude: String(v.longitude) },
      );
    default:
      return translateRule(intl, e.message);
  }
}

/** Why the records service stopped an import partway, and how many sites it had written. */
export function writeProblemWords(intl: IntlShape, e: ImportError): string {
  const t = intl.formatMessage;
  const v = e.values ?? {};
  if (typeof v.written !== 'number') return e.message;
  if (e.problem === 'write_reauth')
    return t(
      {
        id: 'siteImport.problem.writeReauth',
        defaultMessage:
          'Your sign-in expired while the sites were written: {written, plural, =0 {none was written} one {# site was written} other {# sites were written}} before the import stopped. Sign in again and import the same file again to finish (rows already written then count as unchanged)',
      },
      { written: v.written },
    );
  return t(
    {
      id: 'siteImport.problem.writeRefused',
      defaultMessage:
        'The records service refused this row: {reason}. {written, plural, =0 {No site was written} one {# site was written} other {# sites were written}} before the import stopped; import the same file again to finish (rows already written then count as unchanged)',
    },
    { written: v.written, reason: translateRule(intl, String(v.reason ?? '')) },
  );
}
