import type { Queryable } from '../../db/database';
import type { CollectionCreate } from '#shared/schemas/collection';
import type { FieldError } from '#shared/schemas/error';
import { abundanceRefs } from './abundance-rules';
import { asAgencySite, noSuchSite, type AgencySite } from '../common/agency-site';
import { idsByKindOf, lookupErrorsAmong, type LookupRef } from '../common/lookup-errors';
import { unknownAmong } from '../populate';
import { LOOKUP_VERSION_SQL, type CatalogKind, type LookupCatalog } from '../common/lookup-catalog';
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

/** The read of readCollectionReferences, built once: the lock ($1), the lookup version, `site`. */
const referencesSql = (site: string) =>
  `select ${lockSeriesSql('$1::text')} as locked, ${LOOKUP_VERSION_SQL} as lookup_version,
    ${site} as site`;
const REFERENCES_SQL = referencesSql('null::json');
/** With the site $2 of agency $3, if it is live. */
const REFERENCES_AT_SITE_SQL = referencesSql(`(select row_to_json(s) from (
    select id, code, lon, lat, coordinate_precision from site
     where id = $2::int and agency = $3::int and delete_date is null) s)`);

/**
 * Everything a new collection refers to, read in ONE statement: the site, and the lookup version
 * at which `lookups` tells which of its lookup entries are active (with the sexes' names); the
 * same statement takes the lock of the number series `lockKey` names (seriesLockKey). Every
 * statement a create saves is throughput (issue 13), and these were four. A site of another
 * agency reads exactly like a missing one.
 */
export async function readCollectionReferences(
  q: Queryable,
  lookups: LookupCatalog,
  agency: number,
  body: CollectionCreate,
  lockKey: string,
): Promise<CollectionReferences> {
  const refs = collectionRefs(body);
  // A collection names trap, lure, precision, species and sex: all versioned lookups.
  const idsByKind = idsByKindOf(refs) as Map<CatalogKind, number[]>;
  const atSite = body.site != null && isInt4Id(body.site);
  const { rows } = await q.query<{
    lookup_version: string;
    site: Omit<AgencySite, 'isZeroSite'> | null;
  }>(
    atSite ? REFERENCES_AT_SITE_SQL : REFERENCES_SQL,
    atSite ? [lockKey, body.site, agency] : [lockKey],
  );
  const found = await lookups.foundAmong(q, rows[0].lookup_version, idsByKind);
  const site = rows[0].site ? asAgencySite(rows[0].site) : null;
  const errors = lookupErrorsAmong(refs, unknownAmong(idsByKind, found));
  if (body.site != null && !site) errors.push(noSuchSite(body.site));
  const sexes = found
    .filter((f) => f.kind === 'sex')
    .map((f) => ({ id: Number(f.id), name: f.name ?? '' }));
  return { errors, site, sexes };
}
