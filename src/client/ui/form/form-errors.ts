/**
 * Turns zod's generic messages into words a technician understands, for the shared schemas used
 * as form resolvers. Schema-level messages (e.g. "Site code must be exactly 6 digits") win; this
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

function labelFor(path: PropertyKey[] | undefined, labels: Record<string, string>): string {
  const key = (path ?? []).map(String).join('.');
  if (labels[key]) return labels[key];
  const generic = key.replace(/\.\d+\./g, '.*.').replace(/^\d+\./, '*.');
  if (labels[generic]) return labels[generic];
  const last =
    key
      .split('.')
      .filter((p) => !/^\d+$/.test(p))
      .pop() ?? 'This field';
  const words = last.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function friendlyErrors(labels: Record<string, string>) {
  return (iss: Issue): string | undefined => {
    const label = labelFor(iss.path, labels);
    // NaN comes from a number field holding text: "must be a number", not "required".
    const empty = iss.input === undefined || iss.input === null || iss.input === '';
    if (iss.code === 'invalid_type' && empty) return `${label} is required`;
    if (iss.code === 'invalid_type' && iss.expected === 'number')
      return `${label} must be a number`;
    if (iss.code === 'invalid_type') return `${label} is not valid`;
    if (iss.code === 'invalid_value') return `Choose a ${label.toLowerCase()} from the list`;
    if (iss.code === 'too_small' && iss.origin === 'number')
      return `${label} must be at least ${String(iss.minimum)}`;
    if (iss.code === 'too_small' && iss.origin === 'string') return `${label} is required`;
    if (iss.code === 'too_big' && iss.origin === 'number')
      return `${label} must be at most ${String(iss.maximum)}`;
    if (iss.code === 'too_big' && iss.origin === 'string') return `${label} is too long`;
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
