import fc from 'fast-check';
import type { SeededRandom } from './seeded-random';

/** JSON text emitted verbatim: values JSON.stringify cannot write (1e400, a lone surrogate). */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * JSON text of a value, with RawJson written as is and own `__proto__` / `constructor` keys
 * kept (JSON.stringify keeps them too, but only this writer knows RawJson).
 */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Sets an own property, even one named `__proto__` (plain assignment would set the prototype). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Names that reach prototype lookups, property maps and SQL identifiers if anything trusts them. */
export const HOSTILE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'id;drop table site',
  'id"',
  "id'",
  'c.id',
  '1',
  '',
  ' ',
  'ID',
  'agency.id',
  '$where',
  '$eq',
  'a'.repeat(300),
  'ñame',
  'na\u0000me',
] as const;

const NUMBERS: readonly unknown[] = [
  0,
  -0,
  -1,
  1,
  1.5,
  0.1,
  -2.5,
  2147483647,
  2147483648,
  -2147483648,
  -2147483649,
  4294967296,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  1e21,
  1e308,
  -1e308,
  5e-324,
  new RawJson('9007199254740993'),
  new RawJson('1e400'),
  new RawJson('-1e400'),
  new RawJson('1.0'),
  new RawJson('1e2'),
  new RawJson('-0.0'),
  'NaN',
  'Infinity',
  '-Infinity',
  '1',
  '0x10',
  '1e3',
  ' 1',
];

const STRINGS: readonly unknown[] = [
  '',
  ' ',
  'null',
  'undefined',
  "'; drop table collection; --",
  '" or 1=1 --',
  '%00',
  'a\u0000b',
  '\u202eevil',
  '\u200b',
  '👩‍🔬🦟',
  'e\u0301',
  'Ω≈ç√∫',
  '\ufeffBOM',
  new RawJson('"\\ud800"'),
  new RawJson('"\\udfff\\ud800"'),
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '${7*7}',
  '{{7*7}}',
];

const DATES: readonly unknown[] = [
  '2026-07-14',
  '2026-07-14T06:30:00-07:00',
  '2026-07-14T06:30:00Z',
  '2026-07-14T06:30:00.123456789Z',
  '2026-02-29',
  '2026-02-30',
  '2024-02-29',
  '2026-13-01',
  '2026-00-10',
  '0000-01-01',
  '0001-01-01',
  '1899-12-31',
  '1900-01-01',
  '1969-12-31T23:59:59Z',
  '2200-12-31',
  '2201-01-01',
  '9999-12-31',
  '9999-12-31T23:59:59+14:00',
  '+275760-09-13',
  '-000001-01-01',
  '2026-07-14T25:00:00Z',
  '2026-07-14T06:30:00',
  '2026-07-14T06:30:00+14:00',
  '2026-07-14T06:30:00+14:01',
  '2026-07-14T06:30:00-12:00',
  '2026-07-14T06:30:00-12:01',
  '2026-07-14T06:30:00+23:59',
  '2026-07-14T06:30:00+99:99',
  '2026-07-14 06:30:00',
  '14/07/2026',
  'yesterday',
  20260714,
  1784000000000,
];

// Built once: building a grapheme arbitrary indexes all of Unicode (seconds per build).
const GRAPHEMES = fc.string({ unit: 'grapheme', maxLength: 40 });
const BINARY = fc.string({ unit: 'binary', maxLength: 20 });
const JSON_VALUES = fc.jsonValue({ maxDepth: 3 });
const DOUBLES = fc.double();
const INTEGERS = fc.integer();
const SHORT_GRAPHEMES = fc.string({ unit: 'grapheme', maxLength: 20 });

/** A value of any kind that a field should not accept (or should accept only by luck). */
export function hostileValue(rng: SeededRandom): unknown {
  return rng.weighted<() => unknown>([
    [6, () => rng.pick(NUMBERS)],
    [4, () => rng.pick(STRINGS)],
    [4, () => rng.pick(DATES)],
    [2, () => rng.pick([null, true, false, [], {}, [1], { id: 1 }, [null], ''])],
    [1, () => 'x'.repeat(rng.pick([201, 10_001, 100_000]))],
    [1, () => deepNesting(rng)],
    [2, () => rng.sample(GRAPHEMES)],
    [1, () => rng.sample(BINARY)],
    [2, () => rng.sample(JSON_VALUES)],
    [1, () => rng.sample(DOUBLES)],
    [1, () => rng.sample(INTEGERS)],
  ])();
}

/** Arrays or objects nested far deeper than any record (the body parser's depth limit). */
export function deepNesting(rng: SeededRandom): RawJson {
  const depth = rng.pick([20, 64, 65, 200, 1_000, 20_000]);
  return rng.chance(0.5)
    ? new RawJson(`${'['.repeat(depth)}1${']'.repeat(depth)}`)
    : new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

export function plausibleDate(rng: SeededRandom): string {
  const y = rng.pick([2025, 2026, 2026, 2026, 2027]);
  const m = String(rng.int(1, 12)).padStart(2, '0');
  const d = String(rng.int(1, 28)).padStart(2, '0');
  if (rng.chance(0.7)) return `${y}-${m}-${d}`;
  const h = String(rng.int(0, 23)).padStart(2, '0');
  const offset = rng.pick(['Z', '-07:00', '+14:00', '-12:00', '+05:30', '-08:00']);
  return `${y}-${m}-${d}T${h}:${rng.pick(['00', '30', '59'])}:00${offset}`;
}

/** A query-string value, already percent-encoded (sometimes badly, on purpose). */
export function hostileQueryValue(rng: SeededRandom): string {
  const v = rng.weighted<() => unknown>([
    [3, () => rng.pick(NUMBERS)],
    [2, () => rng.pick(DATES)],
    [2, () => rng.pick(STRINGS)],
    [1, () => rng.sample(SHORT_GRAPHEMES)],
    [1, () => 'x'.repeat(rng.pick([300, 3_000]))],
  ])();
  const text = v instanceof RawJson ? v.text.replace(/^"|"$/g, '') : String(v);
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    encoded = '%ED%A0%80'; // a lone surrogate, as UTF-8 bytes no decoder accepts
  }
  // Sometimes a broken percent-escape or a separator the server must not split on.
  return rng.chance(0.1)
    ? rng.pick(['%', '%zz', '%00', '%E0%A4%A', '+', '%26', '%3D', '%5B']) + encoded
    : encoded;
}
