import { z } from 'zod';
import { id, MAX_STORED_INT } from './common';
import { siteCreate, siteUpdate } from './site';

/**
 * POST /v1/site/batch (a Trapline extension of the records service, README "Contract notes"):
 * many site creates and updates in one request and one transaction, for the BFF's site import
 * (contract §12). Each item is what POST /v1/site or PUT /v1/site/{id} takes.
 */
export const MAX_SITE_BATCH = 1000;
/** Its own body limit: 1,000 sites with long comments do not fit the service's 1 MiB. */
export const SITE_BATCH_BODY_LIMIT = 8 * 1024 * 1024;
export const SITE_BATCH_PATH = '/v1/site/batch';

export const siteBatchItem = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('create'), site: siteCreate }),
  z.strictObject({
    op: z.literal('update'),
    id: id.max(MAX_STORED_INT),
    site: siteUpdate,
  }),
]);
export type SiteBatchItem = z.infer<typeof siteBatchItem>;

export const siteBatch = z.strictObject({
  items: z.array(siteBatchItem).min(1).max(MAX_SITE_BATCH),
});

export const siteBatchResult = z.strictObject({
  index: z.number().int(),
  id: z.number().int(),
  result: z.enum(['created', 'updated', 'unchanged']),
});
export type SiteBatchResult = z.infer<typeof siteBatchResult>;

/** The answer (201): one result per item, in the order sent. */
export const siteBatchAnswer = z.strictObject({ results: z.array(siteBatchResult) });
