import type { LookupsDocument } from '#shared';
import type { HistoryAbundance, HistoryRow } from '#shared/schemas/history';
import { formatDate } from '../../lib/dates';
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

const yesNo = (v: unknown) => (v ? 'yes' : 'no');
const plain = (v: unknown) => String(v);
const date = (v: unknown) => formatDate(String(v));
const day = (v: unknown) => formatDate(String(v), true);

/**
 * How each field is named and its value written, in the words of the record screens. Fields not
 * listed (bookkeeping such as `collection_date_date_only`, `primary_source`) are not shown.
 */
function fieldWords(l: Lookups): Record<string, { label: string; value: (v: unknown) => string }> {
  const place = (v: unknown) => {
    const p = v as { latitude?: number; longitude?: number } | null;
    return p ? `${p.latitude}, ${p.longitude}` : '';
  };
  return {
    code: { label: 'Site code', value: plain },
    name: { label: 'Site name', value: plain },
    latitude: { label: 'Latitude', value: plain },
    longitude: { label: 'Longitude', value: plain },
    coordinate_precision: {
      label: 'Coordinate precision',
      value: nameIn(l.coordinate_precision, 'precision'),
    },
    address_1: { label: 'Address', value: plain },
    address_2: { label: 'Address line 2', value: plain },
    city: { label: 'City', value: plain },
    postal_code: { label: 'Postal code', value: plain },
    elevation: { label: 'Elevation (m)', value: plain },
    site_population: { label: 'Population', value: plain },
    region: { label: 'Region', value: nameIn(l.region, 'region') },
    site_land_usage: {
      label: 'Land usage',
      value: (v) =>
        ((v as unknown[] | null) ?? []).map(nameIn(l.land_usage, 'land usage')).join(', '),
    },
    revision_comments: { label: 'Revision comments', value: plain },
    active_date: { label: 'Active from', value: day },
    deactive_date: { label: 'Active until', value: day },
    site: { label: 'Site', value: (v) => `site ${String(v)}` },
    location: { label: 'Place', value: place },
    collection_date: { label: 'Collection date', value: date },
    collection_num: { label: 'Collection number', value: plain },
    surv_year: { label: 'Survey year', value: plain },
    trap: { label: 'Trap type', value: nameIn(l.trap, 'trap') },
    num_trap: { label: 'Number of traps', value: plain },
    trap_nights: { label: 'Trap nights', value: plain },
    trap_problem_bit: { label: 'Trap problem', value: yesNo },
    identified_by: { label: 'Identified by', value: plain },
    comments: { label: 'Comments', value: plain },
    collection: { label: 'Collection', value: (v) => `collection ${String(v)}` },
    pool_num: { label: 'Pool number', value: plain },
    num_count: { label: 'Pool count', value: plain },
    species: { label: 'Species', value: nameIn(l.species, 'species') },
    sex: { label: 'Sex', value: nameIn(l.sex, 'sex') },
    pool: { label: 'Pool', value: (v) => `pool ${String(v)}` },
    method: { label: 'Test method', value: nameIn(l.test_method, 'method') },
    target: { label: 'Target', value: nameIn(l.test_target, 'target') },
    status: { label: 'Result', value: nameIn(l.test_status, 'result') },
    test_date: { label: 'Test date', value: date },
    test_agency: { label: 'Testing agency', value: nameIn(l.agency, 'agency') },
    value: { label: 'Value (Ct)', value: plain },
  };
}

const empty = (v: unknown) =>
  v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** "Count of Cx tarsalis F-Mixed 41 → 14", "Added Cx tarsalis Male: 3", "Removed …". */
function abundanceChanges(before: unknown, after: unknown, l: Lookups): string[] {
  const label = speciesSexLabeller(l);
  const key = (a: HistoryAbundance) => `${a.species}/${a.sex}`;
  const was = new Map(((before as HistoryAbundance[] | null) ?? []).map((a) => [key(a), a]));
  const is = new Map(((after as HistoryAbundance[] | null) ?? []).map((a) => [key(a), a]));
  const out: string[] = [];
  for (const [k, a] of was) {
    const b = is.get(k);
    if (!b) out.push(`Removed ${label(a.species, a.sex)} (count ${a.num_count})`);
    else if (b.num_count !== a.num_count) {
      out.push(`Count of ${label(a.species, a.sex)} ${a.num_count} → ${b.num_count}`);
    }
  }
  for (const [k, b] of is) {
    if (!was.has(k)) out.push(`Added ${label(b.species, b.sex)}: ${b.num_count}`);
  }
  return out;
}

function lureChanges(before: unknown, after: unknown, l: Lookups): string[] {
  const name = nameIn(l.lure, 'lure');
  const was = new Set((before as number[] | null) ?? []);
  const is = new Set((after as number[] | null) ?? []);
  return [
    ...[...was].filter((x) => !is.has(x)).map((x) => `Removed lure ${name(x)}`),
    ...[...is].filter((x) => !was.has(x)).map((x) => `Added lure ${name(x)}`),
  ];
}

/**
 * What one history row changed, in words, one sentence a change. A create lists only the counts
 * and lures it was created with (the record screen shows the rest); a delete says so.
 */
export function describeChanges(row: HistoryRow, lookups: Lookups): string[] {
  if (row.action === 'delete') return ['Deleted'];
  const words = fieldWords(lookups);
  const out: string[] = [];
  for (const [field, [before, after]] of Object.entries(row.changes)) {
    if (field === 'arthropods') {
      out.push(...abundanceChanges(before, after, lookups));
    } else if (field === 'lures') {
      out.push(...lureChanges(before, after, lookups));
    } else if (row.action === 'update' && words[field]) {
      const { label, value } = words[field];
      const show = (v: unknown) => (empty(v) ? '(empty)' : value(v));
      out.push(`${label} ${show(before)} → ${show(after)}`);
    }
  }
  // The row's heading says "Created"; the counts it was created with are what a reader checks.
  if (row.action === 'create') return out;
  return out.length > 0 ? out : ['Saved with no change shown here'];
}

/** "Changed", "Created", "Deleted": the heading of a row. */
export const ACTION_WORDS: Record<HistoryRow['action'], string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
};
