import type { Queryable } from '../../db/database';
import type { FieldError } from '#shared/schemas/error';
import type { SiteBatchItem, SiteBatchResult } from '#shared/schemas/site-batch';
import { HttpError } from '../../http/http-error';
import type { Caller } from '../auth/types';
import { validationFailed } from '../errors';
import { historyOfCreate } from '../history/record-history';
import { prepareSiteCreate, type PreparedCreate } from './create-site';
import { agencyRegion, codeTakenError, siteLookupErrors, unknownSiteLookups } from './site-rules';
import { insertSites, lockSiteCodes, sitesUsingCodes } from './site-store';
import { updateSiteIn } from './update-site';

/**
 * Writes a batch of site creates and updates on the transaction `tx` (POST /v1/site/batch): the
 * same rules as POST /v1/site and PUT /v1/site/{id}, from the same functions, with the creates
 * checked and written set-wise (one lookup read, one lock statement, one code-in-use read, one
 * INSERT, one history INSERT for all of them): per-statement cost is what a 20,000-site import
 * spends its time on.
 *
 * All or nothing: every item is checked; if any fails, a 422 lists each failing field as
 * `items.<index>.<field>` and the transaction rolls back (the updates already run with it).
 * A code may appear once in a batch (a create's, or an update that sets one) and an id once:
 * a revision of a code, which depends on the order of writes, goes in a request of its own.
 */
export async function writeSiteBatch(
  tx: Queryable,
  caller: Caller,
  items: readonly SiteBatchItem[],
  now: Date,
): Promise<SiteBatchResult[]> {
  const errors: FieldError[] = [];
  const fail = (index: number, err: unknown, fallback: string) => {
    // Anything but a contract error is a fault (or an aborted SQL transaction): never a 422.
    if (!(err instanceof HttpError) || err.status >= 500) throw err;
    for (const f of err.fields ?? [{ path: fallback, message: err.message }]) {
      errors.push({
        path: `items.${index}.${f.path === fallback ? f.path : `site.${f.path}`}`,
        message: f.message,
      });
    }
  };
  const fallbackPath = (err: unknown) =>
    err instanceof HttpError && err.status === 404 ? 'id' : 'site.agency';

  // Codes and ids once per batch.
  const codeAt = new Map<string, number>();
  const idAt = new Map<number, number>();
  items.forEach((item, index) => {
    const code = item.site.code;
    if (code != null) {
      const first = codeAt.get(code);
      if (first === undefined) codeAt.set(code, index);
      else
        errors.push({
          path: `items.${index}.site.code`,
          message: `Code ${code} is also in item ${first}: send a revision of a code in a request of its own`,
        });
    }
    if (item.op === 'update') {
      const first = idAt.get(item.id);
      if (first === undefined) idAt.set(item.id, index);
      else
        errors.push({
          path: `items.${index}.id`,
          message: `Site ${item.id} is also in item ${first}`,
        });
    }
  });

  const creates: { index: number; prepared: PreparedCreate }[] = [];
  items.forEach((item, index) => {
    if (item.op !== 'create') return;
    try {
      creates.push({ index, prepared: prepareSiteCreate(caller, item.site, now) });
    } catch (err) {
      fail(index, err, 'site.agency');
    }
  });

  const createBodies = creates.map((c) => (items[c.index] as { site: SiteBatchItem['site'] }).site);
  const bad = await unknownSiteLookups(tx, createBodies);
  creates.forEach((c, i) => {
    for (const f of siteLookupErrors(createBodies[i], bad)) {
      errors.push({ path: `items.${c.index}.site.${f.path}`, message: f.message });
    }
  });
  if (creates.some((c) => c.prepared.columns.region == null)) {
    const region = await agencyRegion(tx, caller.agencyId);
    for (const c of creates)
      if (c.prepared.columns.region == null) c.prepared.columns.region = region;
  }

  // Every code the batch writes, locked in one statement (sorted: no deadlock between batches).
  await lockSiteCodes(tx, caller.agencyId, [...codeAt.keys()]);

  // Updates first, each as PUT /v1/site/{id} does it (they are few in an import).
  const results: SiteBatchResult[] = [];
  for (const [index, item] of items.entries()) {
    if (item.op !== 'update') continue;
    try {
      const { changed } = await updateSiteIn(tx, caller, item.id, item.site, now);
      results.push({ index, id: item.id, result: changed ? 'updated' : 'unchanged' });
    } catch (err) {
      fail(index, err, fallbackPath(err));
    }
  }

  const using = await sitesUsingCodes(
    tx,
    caller.agencyId,
    creates.map((c) => ({ code: c.prepared.code, activeFrom: c.prepared.activeFrom })),
  );
  for (const c of creates) {
    const site = using.get(c.prepared.code);
    if (site) fail(c.index, codeTakenError(c.prepared.code, site), 'site.code');
  }

  if (errors.length) {
    const n = new Set(errors.map((e) => e.path.split('.', 2)[1])).size;
    throw validationFailed(
      errors,
      'validation_failed',
      `Nothing was written: ${n} item${n === 1 ? ' has' : 's have'} a problem`,
    );
  }
  const ids = await insertSites(
    tx,
    caller.agencyId,
    caller.userId,
    creates.map((c) => c.prepared.columns),
    now,
  );
  await historyOfCreate(tx, caller, now, 'site', ids);
  creates.forEach((c, i) => results.push({ index: c.index, id: ids[i], result: 'created' }));
  return results.sort((a, b) => a.index - b.index);
}
