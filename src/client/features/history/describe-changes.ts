import type { IntlShape } from 'react-intl';
import type { LookupsDocument } from '#shared';
import { dateIn, englishIntl } from '../../lib/i18n';
import type { HistoryAbundance, HistoryRow } from '#shared/schemas/history';

import { speciesSexLabeller } from '../../lib/species-sex-label';

type Lookups = Pick<
  LookupsDocument,
  | 'species'
  | 'sex'
  | 'trap'
  | 'lure'
  | 'coordinate_precision'
  | 'land_usage'
  | 'region'
  | 'agency'
  | 'test_method'
  | 'test_target'
  | 'test_status'
>;

type Named = { id: number; name?: string | null; acronym?: string | null; code?: string | null };

/** The name a person knows a lookup entry by; an id missing from the cached lists says so. */
function nameIn(list: readonly Named[], what: string) {
  return (value: unknown): string => {
    const entry = list.find((e) => e.id === value);
    return entry
      ? (entry.acronym ?? entry.name ?? entry.code ?? `${what} ${value}`)
      : `${what} ${String(value)}`;
  };
}

const plain = (v: unknown) => String(v);

/**
 * How each field is named and its value written, in the words of the record screens. Fields not
 * listed (bookkeeping such as `collection_date_date_only`, `primary_source`) are not shown.
 */
function fieldWords(
  l: Lookups,
  intl: IntlShape,
): Record<string, { label: string; value: (v: unknown) => string }> {
  const t = intl.formatMessage;
  const yesNo = (v: unknown) =>
    v
      ? t({ id: 'history.yes', defaultMessage: 'yes' })
      : t({ id: 'history.no', defaultMessage: 'no' });
  const date = (v: unknown) => dateIn(intl, String(v));
  const day = (v: unknown) => dateIn(intl, String(v), true);
  const place = (v: unknown) => {
    const p = v as { latitude?: number; longitude?: number } | null;
    return p ? `${p.latitude}, ${p.longitude}` : '';
  };
  return {
    code: { label: t({ id: 'history.field.code', defaultMessage: 'Site code' }), value: plain },
    name: { label: t({ id: 'history.field.name', defaultMessage: 'Site name' }), value: plain },
    latitude: {
      label: t({ id: 'history.field.latitude', defaultMessage: 'Latitude' }),
      value: plain,
    },
    longitude: {
      label: t({ id: 'history.field.longitude', defaultMessage: 'Longitude' }),
      value: plain,
    },
    coordinate_precision: {
      label: t({ id: 'history.field.coordinatePrecision', defaultMessage: 'Coordinate precision' }),
      value: nameIn(l.coordinate_precision, 'precision'),
    },
    address_1: {
      label: t({ id: 'history.field.address1', defaultMessage: 'Address' }),
      value: plain,
    },
    address_2: {
      label: t({ id: 'history.field.address2', defaultMessage: 'Address line 2' }),
      value: plain,
    },
    city: { label: t({ id: 'history.field.city', defaultMessage: 'City' }), value: plain },
    postal_code: {
      label: t({ id: 'history.field.postalCode', defaultMessage: 'Postal code' }),
      value: plain,
    },
    elevation: {
      label: t({ id: 'history.field.elevation', defaultMessage: 'Elevation (m)' }),
      value: plain,
    },
    site_population: {
      label: t({ id: 'history.field.sitePopulation', defaultMessage: 'Population' }),
      value: plain,
    },
    region: {
      label: t({ id: 'history.field.region', defaultMessage: 'Region' }),
      value: nameIn(l.region, 'region'),
    },
    site_land_usage: {
      label: t({ id: 'history.field.siteLandUsage', defaultMessage: 'Land usage' }),
      value: (v) =>
        ((v as unknown[] | null) ?? []).map(nameIn(l.land_usage, 'land usage')).join(', '),
    },
    revision_comments: {
      label: t({ id: 'history.field.revisionComments', defaultMessage: 'Revision comments' }),
      value: plain,
    },
    active_date: {
      label: t({ id: 'history.field.activeDate', defaultMessage: 'Active from' }),
      value: day,
    },
    deactive_date: {
      label: t({ id: 'history.field.deactiveDate', defaultMessage: 'Active until' }),
      value: day,
    },
    site: {
      label: t({ id: 'history.field.site', defaultMessage: 'Site' }),
      value: (v) => t({ id: 'history.value.site', defaultMessage: 'site {id}' }, { id: String(v) }),
    },
    location: { label: t({ id: 'history.field.location', defaultMessage: 'Place' }), value: place },
    collection_date: {
      label: t({ id: 'history.field.collectionDate', defaultMessage: 'Collection date' }),
      value: date,
    },
    collection_num: {
      label: t({ id: 'history.field.collectionNum', defaultMessage: 'Collection number' }),
      value: plain,
    },
    surv_year: {
      label: t({ id: 'history.field.survYear', defaultMessage: 'Survey year' }),
      value: plain,
    },
    trap: {
      label: t({ id: 'history.field.trap', defaultMessage: 'Trap type' }),
      value: nameIn(l.trap, 'trap'),
    },
    num_trap: {
      label: t({ id: 'history.field.numTrap', defaultMessage: 'Number of traps' }),
      value: plain,
    },
    trap_nights: {
      label: t({ id: 'history.field.trapNights', defaultMessage: 'Trap nights' }),
      value: plain,
    },
    trap_problem_bit: {
      label: t({ id: 'history.field.trapProblemBit', defaultMessage: 'Trap problem' }),
      value: yesNo,
    },
    identified_by: {
      label: t({ id: 'history.field.identifiedBy', defaultMessage: 'Identified by' }),
      value: plain,
    },
    comments: {
      label: t({ id: 'history.field.comments', defaultMessage: 'Comments' }),
      value: plain,
    },
    collection: {
      label: t({ id: 'history.field.collection', defaultMessage: 'Collection' }),
      value: (v) =>
        t({ id: 'history.value.collection', defaultMessage: 'collection {id}' }, { id: String(v) }),
    },
    pool_num: {
      label: t({ id: 'history.field.poolNum', defaultMessage: 'Pool number' }),
      value: plain,
    },
    num_count: {
      label: t({ id: 'history.field.numCount', defaultMessage: 'Pool count' }),
      value: plain,
    },
    species: {
      label: t({ id: 'history.field.species', defaultMessage: 'Species' }),
      value: nameIn(l.species, 'species'),
    },
    sex: {
      label: t({ id: 'history.field.sex', defaultMessage: 'Sex' }),
      value: nameIn(l.sex, 'sex'),
    },
    pool: {
      label: t({ id: 'history.field.pool', defaultMessage: 'Pool' }),
      value: (v) => t({ id: 'history.value.pool', defaultMessage: 'pool {id}' }, { id: String(v) }),
    },
    method: {
      label: t({ id: 'history.field.method', defaultMessage: 'Test method' }),
      value: nameIn(l.test_method, 'method'),
    },
    target: {
      label: t({ id: 'history.field.target', defaultMessage: 'Target' }),
      value: nameIn(l.test_target, 'target'),
    },
    status: {
      label: t({ id: 'history.field.status', defaultMessage: 'Result' }),
      value: nameIn(l.test_status, 'result'),
    },
    test_date: {
      label: t({ id: 'history.field.testDate', defaultMessage: 'Test date' }),
      value: date,
    },
    test_agency: {
      label: t({ id: 'history.field.testAgency', defaultMessage: 'Testing agency' }),
      value: nameIn(l.agency, 'agency'),
    },
    value: { label: t({ id: 'history.field.value', defaultMessage: 'Value (Ct)' }), value: plain },
  };
}

const empty = (v: unknown) =>
  v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** "Count of Cx tarsalis F-Mixed 41 → 14", "Added Cx tarsalis Male: 3", "Removed …". */
function abundanceChanges(before: unknown, after: unknown, l: Lookups, intl: IntlShape): string[] {
  const t = intl.formatMessage;
  const label = speciesSexLabeller(l);
  const key = (a: HistoryAbundance) => `${a.species}/${a.sex}`;
  const was = new Map(((before as HistoryAbundance[] | null) ?? []).map((a) => [key(a), a]));
  const is = new Map(((after as HistoryAbundance[] | null) ?? []).map((a) => [key(a), a]));
  const out: string[] = [];
  for (const [k, a] of was) {
    const b = is.get(k);
    if (!b)
      out.push(
        t(
          { id: 'history.removedCount', defaultMessage: 'Removed {what} (count {count})' },
          { what: label(a.species, a.sex), count: a.num_count },
        ),
      );
    else if (b.num_count !== a.num_count) {
      out.push(
        t(
          { id: 'history.countChanged', defaultMessage: 'Count of {what} {before} → {after}' },
          { what: label(a.species, a.sex), before: a.num_count, after: b.num_count },
        ),
      );
    }
  }
  for (const [k, b] of is) {
    if (!was.has(k))
      out.push(
        t(
          { id: 'history.addedCount', defaultMessage: 'Added {what}: {count}' },
          { what: label(b.species, b.sex), count: b.num_count },
        ),
      );
  }
  return out;
}

function lureChanges(before: unknown, after: unknown, l: Lookups, intl: IntlShape): string[] {
  const t = intl.formatMessage;
  const name = nameIn(l.lure, 'lure');
  const was = new Set((before as number[] | null) ?? []);
  const is = new Set((after as number[] | null) ?? []);
  return [
    ...[...was]
      .filter((x) => !is.has(x))
      .map((x) =>
        t({ id: 'history.removedLure', defaultMessage: 'Removed lure {name}' }, { name: name(x) }),
      ),
    ...[...is]
      .filter((x) => !was.has(x))
      .map((x) =>
        t({ id: 'history.addedLure', defaultMessage: 'Added lure {name}' }, { name: name(x) }),
      ),
  ];
}

/**
 * What one history row changed, in words, one sentence a change. A create lists only the counts
 * and lures it was created with (the record screen shows the rest); a delete says so.
 */
export function describeChanges(
  row: HistoryRow,
  lookups: Lookups,
  intl: IntlShape = englishIntl(),
): string[] {
  const t = intl.formatMessage;
  if (row.action === 'delete') return [actionWord(intl, 'delete')];
  const words = fieldWords(lookups, intl);
  const out: string[] = [];
  for (const [field, [before, after]] of Object.entries(row.changes)) {
    if (field === 'arthropods') {
      out.push(...abundanceChanges(before, after, lookups, intl));
    } else if (field === 'lures') {
      out.push(...lureChanges(before, after, lookups, intl));
    } else if (row.action === 'update' && words[field]) {
      const { label, value } = words[field];
      const show = (v: unknown) =>
        empty(v) ? t({ id: 'history.empty', defaultMessage: '(empty)' }) : value(v);
      out.push(
        t(
          { id: 'history.fieldChanged', defaultMessage: '{field} {before} → {after}' },
          { field: label, before: show(before), after: show(after) },
        ),
      );
    }
  }
  // The row's heading says "Created"; the counts it was created with are what a reader checks.
  if (row.action === 'create') return out;
  return out.length > 0
    ? out
    : [t({ id: 'history.noChangeShown', defaultMessage: 'Saved with no change shown here' })];
}

/** "Changed", "Created", "Deleted": the heading of a row. */
export function actionWord(intl: IntlShape, action: HistoryRow['action']): string {
  const t = intl.formatMessage;
  switch (action) {
    case 'create':
      return t({ id: 'history.action.create', defaultMessage: 'Created' });
    case 'update':
      return t({ id: 'history.action.update', defaultMessage: 'Changed' });
    case 'delete':
      return t({ id: 'history.action.delete', defaultMessage: 'Deleted' });
  }
}
