import { z } from 'zod';

/**
 * The history of a record (contract §11): the service's answer to `GET /v1/history`, read by the
 * app's History panel and the manager's "changes since" list.
 */
export const HISTORY_ENTITIES = ['site', 'collection', 'pool', 'test'] as const;
export const historyEntity = z.enum(HISTORY_ENTITIES);
export type HistoryEntity = z.infer<typeof historyEntity>;

export const historyAction = z.enum(['create', 'update', 'delete']);
export type HistoryAction = z.infer<typeof historyAction>;

/** One change of one record: `changes` is `{field: [before, after]}`. */
export const historyRow = z.object({
  id: z.number().int(),
  at: z.string(),
  /** `id` null: written with an agency token, which acts for the agency and not a person. */
  user: z.object({ id: z.number().int().nullable(), full_name: z.string().nullable() }),
  action: historyAction,
  entity: historyEntity,
  /** The record's id. */
  record: z.number().int(),
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
});
export type HistoryRow = z.infer<typeof historyRow>;

export const historyList = z.object({ rows: z.array(historyRow), count: z.number().int() });
export type HistoryList = z.infer<typeof historyList>;

/** A collection's abundance row as the history lists it, in `arthropods` before and after. */
export type HistoryAbundance = { species: number; sex: number; num_count: number };
