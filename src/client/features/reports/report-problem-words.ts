import type { IntlShape } from 'react-intl';
import type { ReportProblem } from '#shared/reports';
import type { FieldError } from '#shared/schemas/error';

/**
 * Why the BFF refused a report parameter, in the person's language: by the problem's stable code
 * and the values the server sends beside its English sentence (issue 38). A field without a
 * code (an older server) keeps the server's words.
 */
export function reportProblemWords(intl: IntlShape, field: FieldError): string {
  const t = intl.formatMessage;
  const v = field.values ?? {};
  switch (field.problem as ReportProblem | undefined) {
    case 'unknown_parameter':
      return t(
        {
          id: 'reports.problem.unknownParameter',
          defaultMessage: 'No report takes “{parameter}”',
        },
        { parameter: String(v.parameter ?? field.path) },
      );
    case 'too_many_values':
      return t(
        { id: 'reports.problem.tooManyValues', defaultMessage: 'Choose at most {max, number}' },
        { max: Number(v.max) },
      );
    case 'unknown_names': {
      const names = Array.isArray(v.names) ? v.names : [];
      return t(
        {
          id: 'reports.problem.unknownNames',
          defaultMessage:
            '{what, select, trap {No trap type is called {names}} other {No species is called {names}}}{more, plural, =0 {} one { (and # more)} other { (and # more)}}: choose from the list',
        },
        {
          what: field.path,
          names: intl.formatList(
            names.map((n) => `“${n}”`),
            { type: 'disjunction' },
          ),
          more: Number(v.more ?? 0),
        },
      );
    }
    case 'too_many_rows':
      return t(
        {
          id: 'reports.problem.tooManyRows',
          defaultMessage:
            'Together these make {rows, number} rows, more than the {budget, number} a report may have',
        },
        { rows: Number(v.rows), budget: Number(v.budget) },
      );
    case 'trapnights_order':
      return t(
        {
          id: 'reports.problem.trapnightsOrder',
          defaultMessage: 'Must be at least the smallest number of trap nights ({min, number})',
        },
        { min: Number(v.min) },
      );
    // Bounds said as written: they are years and counts, never "2,200".
    case 'above_max':
      return t(
        { id: 'reports.problem.aboveMax', defaultMessage: 'Must be at most {max}' },
        { max: String(v.max) },
      );
    case 'below_min':
      return t(
        { id: 'reports.problem.belowMin', defaultMessage: 'Must be at least {min}' },
        { min: String(v.min) },
      );
    case 'invalid_value':
      return t({
        id: 'reports.problem.invalidValue',
        defaultMessage: 'This is not a value the report takes',
      });
    default:
      return field.message;
  }
}

/**
 * The banner's sentence over a refused report: the row budget in numbers when that was the
 * reason, else that some choices are not valid; an older server's English when no field has a
 * code.
 */
export function refusalSummary(intl: IntlShape, message: string, fields: FieldError[]): string {
  const over = fields.find((f) => f.problem === 'too_many_rows');
  if (over)
    return intl.formatMessage(
      {
        id: 'reports.problem.tooManyRowsSummary',
        defaultMessage:
          'This report would have {rows, number} rows; a report has at most {budget, number}. Ask for fewer years, species or traps, a longer interval, or separate by fewer labels',
      },
      { rows: Number(over.values?.rows), budget: Number(over.values?.budget) },
    );
  if (fields.some((f) => f.problem))
    return intl.formatMessage({
      id: 'reports.problem.notValid',
      defaultMessage: 'These choices cannot make a report',
    });
  return message;
}
