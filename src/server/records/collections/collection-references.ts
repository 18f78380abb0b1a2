import type { Queryable } from '../../db/database';
import type { CollectionCreate } from '#shared/schemas/collection';
import type { FieldError } from '#shared/schemas/error';
import { abundanceRefs } from './abundance-rules';
import { asAgencySite, noSuchSite, type AgencySite } from '../common/agency-site';
import { idsByKindOf, lookupErrorsAmong, type LookupRef } from '../common/lookup-errors';
import { lookupReadSql, unknownAmong, type FoundLookup } from '../populate';
import { isInt4Id } from '../storable';
import { lockSeriesSql } from '../common/next-number';

/** Lookup references a collection body makes (trap, lures, location precision, arthropods). */
export function collectionRefs(body: Partial<CollectionCreate>): LookupRef[] {
  return [
    ...(body.trap != null ? [{ path: 'trap', table: 'trap' as const, id: body.trap }] : []),
    ...(body.lures ?? []).map((id, i) => ({ path: `lures.${i}`, table: 'lure' as const, id })),
    ...(body.location
      ? [
          {
            path: 'location.coordinate_precision',
            table: 'coordinate_precision' as const,
            id: body.location.coordinate_precision,
          },
        ]
      : []),
    ...abundanceRefs(body.arthropods ?? []),
  ];
}

export type CollectionReferences = {
  /** Unknown or inactive lookups (contract §5) and a site the agency does not have: 422 fields. */
  errors: FieldError[];
  /** The agency's live site the body names, or null. */
  site: AgencySite | null;
  /** The names of the sexes the body's abundance rows name, for the F-Mixed rule (§6). */
  sexes: Array<{ id: number; name: string }>;
};

/**
 * Everything a new collection refers to, read in ONE statement: its lookup entries (active or
 * not, with the sexes' names), and the site; the same statement takes the lock of the number
 * series `lockKey` names (seriesLockKey). Every statement a create saves is throughput
 * (issue 13), and these were four. A site of another agency reads exactly like a missing one.
 */
export async function readCollectionReferences(
  q: Queryable,
  agency: number,
  body: CollectionCreate,
  lockKey: string,
): Promise<CollectionReferences> {
  const refs = collectionRefs(body);
  const idsByKind = idsByKindOf(refs);
  const params: unknown[] = [lockKey];
  const lookups = lookupReadSql(idsByKind, params, new Set(['sex']));
  let siteSql: string | null = null;
  if (body.site != null && isInt4Id(body.site)) {
    params.push(body.site, agency);
    siteSql = `select id, code, lon, lat, coordinate_precision from site
      where id = $${params.length - 1}::int and agency = $${params.length}::int
        and delete_date is null`;
  }
  const { rows } = await q.query<{
    found: FoundLookup[] | null;
    site: Omit<AgencySite, 'isZeroSite'> | null;
  }>(
    `select ${lockSeriesSql('$1::text')} as locked,
      ${lookups ? `(select json_agg(f) from (${lookups}) f)` : 'null::json'} as found,
      ${siteSql ? `(select row_to_json(s) from (${siteSql}) s)` : 'null::json'} as site`,
    params,
  );
  const found = rows[0].found ?? [];
  const site = rows[0].site ? asAgencySite(rows[0].site) : null;
  const errors = lookupErrorsAmong(refs, unknownAmong(idsByKind, found));
  if (body.site != null && !site) errors.push(noSuchSite(body.site));
  const sexes = found
    .filter((f) => f.kind === 'sex')
    .map((f) => ({ id: Number(f.id), name: f.name ?? '' }));
  return { errors, site, sexes };
}
