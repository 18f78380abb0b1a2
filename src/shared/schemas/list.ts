import { z } from 'zod';

/** `{rows, count}` list envelope (contract §4). `count` may be missing upstream (tolerate). */
export function listOf<T extends z.ZodType>(row: T) {
  return z.object({ rows: z.array(row), count: z.number().int().nonnegative().optional() });
}
export type List<T> = { rows: T[]; count?: number };

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;
