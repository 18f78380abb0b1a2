import { ENTITY } from '#shared/entities';
import type { PhotoEntity } from '#shared/schemas/attachment';
import { HttpError } from '../../http/http-error';
import type { BffContext } from '../context';
import { reauthRequired } from '../session-errors';
import type { StoredSession } from '../session-store';

const NOUN: Record<PhotoEntity, string> = { site: 'site', collection: 'collection', pool: 'pool' };

/**
 * Asks the upstream for the record, as the user: the upstream's own agency rules decide, so a
 * record of another agency is "not found" here exactly as it is on the record routes (never
 * revealing that it exists). Nothing of the photo is stored before this answers yes.
 */
export async function requireRecordOfAgency(
  ctx: BffContext,
  session: StoredSession,
  entity: PhotoEntity,
  record: number,
): Promise<void> {
  const res = await ctx.upstream.request({
    method: 'GET',
    path: `${ENTITY[entity].path}/${record}`,
    headers: { authorization: `Bearer ${session.token}`, accept: 'application/json' },
  });
  if (res.status === 200) return;
  if (res.status === 401) {
    await ctx.sessions.expireToken(session, ctx.now());
    throw reauthRequired();
  }
  if (res.status === 404 || res.status === 403) {
    throw new HttpError(
      404,
      'not_found',
      `There is no ${NOUN[entity]} ${record} in your agency: the photo was not stored`,
    );
  }
  throw new HttpError(
    502,
    'upstream_unavailable',
    'The records service did not answer as expected; the photo is sent again later',
  );
}
