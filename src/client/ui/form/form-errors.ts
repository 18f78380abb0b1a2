import type { IntlShape, MessageDescriptor } from 'react-intl';

/**
 * Turns zod's generic messages into words a technician understands, in the person's language,
 * for the shared schemas used as form resolvers. Schema-level messages (e.g. "Site code must be
 * exactly 6 digits") win (said in the language at display, see lib/i18n `translateRule`); this
 * only fills the generic ones: missing values, wrong types, numbers out of range.
 */
type Issue = {
  code: string;
  path?: PropertyKey[];
  input?: unknown;
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
};

/** A form's field labels by dotted path (`arthropods.*.species` for every row). */
export type FieldLabels = Record<string, string | MessageDescriptor>;

function labelFor(intl: IntlShape, path: PropertyKey[] | undefined, labels: FieldLabels): string {
  const key = (path ?? []).map(String).join('.');
  const generic = key.replace(/\.\d+\./g, '.*.').replace(/^\d+\./, '*.');
  const found = labels[key] ?? labels[generic];
  if (found) return typeof found === 'string' ? found : intl.formatMessage(found);
  const last = key
    .split('.')
    .filter((p) => !/^\d+$/.test(p))
    .pop();
  if (!last)
    return intl.formatMessage({ id: 'formErrors.thisField', defaultMessage: 'This field' });
  const words = last.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function friendlyErrors(labels: FieldLabels, intl: IntlShape) {
  const t = intl.formatMessage;
  return (iss: Issue): string | undefined => {
    const label = labelFor(intl, iss.path, labels);
    // NaN comes from a number field holding text: "must be a number", not "required".
    const empty = iss.input === undefined || iss.input === null || iss.input === '';
    if (iss.code === 'invalid_type' && empty)
      return t({ id: 'formErrors.required', defaultMessage: '{label} is required' }, { label });
    if (iss.code === 'invalid_type' && iss.expected === 'number')
      return t(
        { id: 'formErrors.notNumber', defaultMessage: '{label} must be a number' },
        { label },
      );
    if (iss.code === 'invalid_type')
      return t({ id: 'formErrors.notValid', defaultMessage: '{label} is not valid' }, { label });
    if (iss.code === 'invalid_value')
      return t(
        { id: 'formErrors.chooseFromList', defaultMessage: 'Choose a {label} from the list' },
        { label: label.toLowerCase() },
      );
    if (iss.code === 'too_small' && iss.origin === 'number')
      return t(
        { id: 'formErrors.atLeast', defaultMessage: '{label} must be at least {min}' },
        { label, min: String(iss.minimum) },
      );
    if (iss.code === 'too_small' && iss.origin === 'string')
      return t({ id: 'formErrors.required', defaultMessage: '{label} is required' }, { label });
    if (iss.code === 'too_big' && iss.origin === 'number')
      return t(
        { id: 'formErrors.atMost', defaultMessage: '{label} must be at most {max}' },
        { label, max: String(iss.maximum) },
      );
    if (iss.code === 'too_big' && iss.origin === 'string')
      return t({ id: 'formErrors.tooLong', defaultMessage: '{label} is too long' }, { label });
    return undefined;
  };
}

/**
 * A number as a person types it: digits, a sign, a decimal point, spaces around. Number() also reads
 * "0x10", "1e3" and "0b11" (as 16, 1000 and 3): a count nobody typed, so those are not numbers.
 */
const TYPED_NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/;

/** Empty input → undefined (field left out), otherwise a number (NaN stays NaN: "must be a number"). */
export function asNumber(v: unknown): number | undefined {
  if (v === '' || v === null || v === undefined) return undefined;
  if (typeof v === 'number') return v;
  const text = String(v);
  if (text.trim() === '') return undefined;
  return TYPED_NUMBER.test(text) ? Number(text) : NaN;
}

/** Empty optional text → undefined so optional patterns (postal code) are not checked on blanks. */
export function asOptionalText(v: unknown): string | undefined {
  if (typeof v !== 'string') return v == null ? undefined : String(v);
  return v.trim() === '' ? undefined : v;
}
