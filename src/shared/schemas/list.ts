import { z } from 'zod';

/** `{rows, count}` list envelope (contract §4). `count` may be missing upstream (tolerate). */
export function listOf<T extends z.ZodType>(row: T) {
  return z.object({ rows: z.array(row), count: z.number().int().nonnegative().optional() });
}
export type List<T> = { rows: T[]; count?: number };

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;

/**
 * The record rows and total of a list answer in any shape the contract tolerates: `{rows, count}`,
 * `{rows}` without count, or a bare array (public services vary). Non-object rows are dropped.
 * Null when the body is no list at all, so each caller says what that means for it.
 */
export function listedRows(
  body: unknown,
): { rows: Record<string, unknown>[]; count: number | null } | null {
  const envelope = body as { rows?: unknown; count?: unknown } | null | undefined;
  const raw = Array.isArray(body) ? body : Array.isArray(envelope?.rows) ? envelope.rows : null;
  if (!raw) return null;
  const count = !Array.isArray(body) && typeof envelope?.count === 'number' ? envelope.count : null;
  return {
    rows: raw.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object'),
    count,
  };
}
