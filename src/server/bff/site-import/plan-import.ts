import { SITE_DATES_MESSAGE, siteDatesInOrder } from '#shared/rules/site-dates-in-order';
import { toIsoOutput } from '#shared/schemas/common';
import { ZERO_SITE_CODE, type SiteCreate, type SiteUpdate } from '#shared/schemas/site';
import type { ImportError } from '#shared/schemas/site-import';
import type { ExistingSite } from './existing-sites';
import type { ReadRows } from './import-rows';
import { rowToSite, type CheckedRow, type PrecisionLookup } from './row-to-site';

export type PlannedUpdate = { row: number; id: number; code: string; changes: SiteUpdate };

/** What an import would do. It may be carried out only when `errors` is empty. */
export type ImportPlan = {
  rows: number;
  creates: CheckedRow[];
  updates: PlannedUpdate[];
  unchanged: number;
  errors: ImportError[];
};

/**
 * Checks every row and decides, by site code within the agency, what each one does: a new code
 * creates a site; a code the agency has updates that site where a field differs, else is
 * unchanged. Every bad row is listed, not only the first: the schema (row-to-site.ts), a code
 * twice in the file, the Zero Site's reserved code, and deactive_date before active_date (as the
 * site would be after the update, when the file leaves a date column out).
 */
export function planImport(
  { rows, errors: readErrors, count }: ReadRows,
  precisions: PrecisionLookup,
  existing: ReadonlyMap<string, ExistingSite>,
): ImportPlan {
  const errors = [...readErrors];
  const plan: ImportPlan = { rows: count, creates: [], updates: [], unchanged: 0, errors };
  const firstRowOfCode = new Map<string, number>();

  for (const input of rows) {
    const rawCode = input.values.code == null ? '' : String(input.values.code).trim();
    const checked = rowToSite(input, precisions);
    const rowErrors = 'errors' in checked ? checked.errors : [];
    if (rawCode !== '') {
      const first = firstRowOfCode.get(rawCode);
      if (first !== undefined) {
        rowErrors.push({
          row: input.row,
          field: 'code',
          code: 'duplicate_code',
          message: `Site code ${rawCode} is also on row ${first}: each site must appear once in the file`,
          values: { code: rawCode, first },
        });
      } else {
        firstRowOfCode.set(rawCode, input.row);
      }
      if (rawCode === ZERO_SITE_CODE) {
        rowErrors.push({
          row: input.row,
          field: 'code',
          code: 'reserved_code',
          message: `Site code ${ZERO_SITE_CODE} belongs to the agency's Zero Site — pick another code`,
        });
      }
    }
    if (rowErrors.length || !('site' in checked)) {
      errors.push(...rowErrors);
      continue;
    }
    const site = checked.site;
    const held = existing.get(site.body.code);
    const activeDate = site.columns.includes('active_date')
      ? site.body.active_date
      : held?.active_date;
    const deactiveDate = site.columns.includes('deactive_date')
      ? site.body.deactive_date
      : held?.deactive_date;
    if (!siteDatesInOrder(activeDate, deactiveDate)) {
      errors.push({
        row: site.row,
        field: 'deactive_date',
        code: 'validation_failed',
        message: SITE_DATES_MESSAGE,
      });
      continue;
    }
    if (!held) {
      plan.creates.push(site);
      continue;
    }
    const changes = changedFields(site, held);
    if (Object.keys(changes).length === 0) plan.unchanged += 1;
    else plan.updates.push({ row: site.row, id: held.id, code: held.code, changes });
  }
  errors.sort((a, b) => a.row - b.row);
  return plan;
}

const isoOrNull = (v: string | null | undefined) => {
  if (v == null || v === '') return null;
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? toIsoOutput(v) : v);
  return Number.isNaN(t) ? v : new Date(t).toISOString();
};
const textOrNull = (v: string | null | undefined) => (v == null || v === '' ? null : v);

/** The fields of the row that differ from the site: what the update sends, and only that. */
function changedFields(site: CheckedRow, held: ExistingSite): SiteUpdate {
  const body: SiteCreate = site.body;
  const changes: SiteUpdate = {};
  if (body.name !== held.name) changes.name = body.name;
  if (body.coordinate_precision !== held.coordinate_precision) {
    changes.coordinate_precision = body.coordinate_precision;
  }
  const [lon, lat] = body.shape.coordinates;
  if (!held.coordinates || held.coordinates[0] !== lon || held.coordinates[1] !== lat) {
    changes.shape = { type: 'Point', coordinates: [lon, lat] };
  }
  for (const col of site.columns) {
    if (col === 'comments') {
      if (textOrNull(body.comments) !== textOrNull(held.comments))
        changes.comments = body.comments ?? null;
    } else if (isoOrNull(body[col]) !== isoOrNull(held[col])) {
      changes[col] = body[col] ?? null;
    }
  }
  return changes;
}
