import type { Queryable } from '../../db/database';
import type { FieldError } from '#shared/schemas/error';
import { ZERO_SITE_CODE, type SiteCreate } from '#shared/schemas/site';
import { SITE_DATES_MESSAGE, siteDatesInOrder } from '#shared/rules/site-dates-in-order';
import { HttpError } from '../../http/http-error';
import { validationFailed } from '../errors';
import { unknownLookupIdsByKind } from '../populate';
import { siteUsingCode } from './site-store';

/** The lookup ids of site bodies that are unknown or inactive, by kind (one query for all). */
export type UnknownSiteLookups = {
  coordinate_precision: Set<number>;
  region: Set<number>;
  land_usage: Set<number>;
};

/** Reads which lookup ids named by these site bodies are unknown: one statement for any number. */
export async function unknownSiteLookups(
  db: Queryable,
  inputs: readonly Partial<SiteCreate>[],
): Promise<UnknownSiteLookups> {
  const ids = {
    coordinate_precision: new Set<number>(),
    region: new Set<number>(),
    land_usage: new Set<number>(),
  };
  for (const input of inputs) {
    if (input.coordinate_precision != null)
      ids.coordinate_precision.add(input.coordinate_precision);
    if (input.region != null) ids.region.add(input.region);
    for (const id of input.site_land_usage ?? []) ids.land_usage.add(id);
  }
  const wanted = new Map(
    (Object.entries(ids) as [keyof UnknownSiteLookups, Set<number>][])
      .filter(([, set]) => set.size > 0)
      .map(([kind, set]) => [kind, [...set]] as const),
  );
  const bad = wanted.size ? await unknownLookupIdsByKind(db, wanted) : new Map();
  return {
    coordinate_precision: new Set(bad.get('coordinate_precision') ?? []),
    region: new Set(bad.get('region') ?? []),
    land_usage: new Set(bad.get('land_usage') ?? []),
  };
}

/** The fields of one site body naming an unknown lookup id (contract §5). */
export function siteLookupErrors(
  input: Partial<SiteCreate>,
  bad: UnknownSiteLookups,
): FieldError[] {
  const fields: FieldError[] = [];
  if (
    input.coordinate_precision != null &&
    bad.coordinate_precision.has(input.coordinate_precision)
  )
    fields.push({
      path: 'coordinate_precision',
      message: `Unknown coordinate precision ${input.coordinate_precision}`,
    });
  if (input.region != null && bad.region.has(input.region))
    fields.push({ path: 'region', message: `Unknown region ${input.region}` });
  input.site_land_usage?.forEach((id, i) => {
    if (bad.land_usage.has(id))
      fields.push({ path: `site_land_usage.${i}`, message: `Unknown land usage ${id}` });
  });
  return fields;
}

/** Unknown or inactive lookup ids in a site body → 422 naming each field (contract §5). */
export async function checkSiteLookups(db: Queryable, input: Partial<SiteCreate>): Promise<void> {
  const fields = siteLookupErrors(input, await unknownSiteLookups(db, [input]));
  if (fields.length) throw validationFailed(fields);
}

/** A site stops being used after it started: deactive_date on or after active_date. */
export function checkSiteDates(activeDate: unknown, deactiveDate: unknown): void {
  if (typeof activeDate !== 'string' || typeof deactiveDate !== 'string') return;
  if (!siteDatesInOrder(activeDate, deactiveDate)) {
    throw validationFailed([{ path: 'deactive_date', message: SITE_DATES_MESSAGE }]);
  }
}

/**
 * Contract §6: the agency's one Zero Site is created with the agency; no other site may take its
 * code 000000, at any date (issue 9, D6: a second one could be made while the first was
 * deactivated). 409 site_code_taken, like any code in use. Backed by migration 006.
 */
export function assertCodeNotReserved(code: string | undefined): void {
  if (code !== ZERO_SITE_CODE) return;
  throw new HttpError(
    409,
    'site_code_taken',
    `Site code ${ZERO_SITE_CODE} is reserved for the Zero Site — pick another code`,
    [{ path: 'code', message: `${ZERO_SITE_CODE} is reserved for the Zero Site` }],
  );
}

/**
 * The Zero Site stays active: collections away from any site go there at any date, and a
 * deactivated one would free its code for a second (issue 9, D6). Clearing (null) is fine.
 */
export function assertZeroSiteStaysActive(deactiveDate: unknown): void {
  if (deactiveDate == null) return;
  const message = 'The Zero Site stays active: it cannot be given a deactive_date';
  throw validationFailed([{ path: 'deactive_date', message }], 'validation_failed', message);
}

/**
 * 409 site_code_taken when another site keeps the code in use (call under lockSiteCode); an edit
 * passes the site's own `activeUntil` (see siteUsingCode).
 */
export async function assertCodeFree(
  tx: Queryable,
  agencyId: number,
  code: string,
  activeFrom: string,
  exceptId: number | null,
  activeUntil?: string | null,
): Promise<void> {
  const using = await siteUsingCode(tx, agencyId, code, activeFrom, exceptId, activeUntil);
  if (using) throw codeTakenError(code, using);
}

/** 409 site_code_taken: `using` keeps `code` in use. */
export function codeTakenError(code: string, using: { id: number; name: string }): HttpError {
  return new HttpError(
    409,
    'site_code_taken',
    `Site code ${code} is already used by '${using.name}' — pick another code`,
    [{ path: 'code', message: `Already used by site ${using.id} '${using.name}'` }],
  );
}

export async function agencyRegion(db: Queryable, agencyId: number): Promise<number | null> {
  const { rows } = await db.query<{ region: number | null }>(
    'select region from agency where id = $1',
    [agencyId],
  );
  return rows[0]?.region ?? null;
}
