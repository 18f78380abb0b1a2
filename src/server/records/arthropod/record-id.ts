import { notFound } from '../errors';

/** The `{id}` of a record path: anything but a positive integer names no record (404). */
export function recordId(raw: unknown, what: string): number {
  const text = String(raw ?? '');
  const n = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n <= 0) throw notFound(what);
  return n;
}
