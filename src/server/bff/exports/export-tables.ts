import { ENTITY } from '#shared/entities';
import { SPECIES_TYPES } from '#shared/schemas/lookups';
import type { Cell } from '#shared/reports';
import { idOf, nameOf, type LookupNames } from './lookup-names';
import type { UpstreamList, UpstreamRow } from './upstream-pages';

/**
 * One export: the upstream lists it reads (in this order, each in id order), its columns (the
 * order never changes: scripts read them by position too) and the rows one record gives.
 */
export type ExportTable = {
  /** The route's file name and the file's kind (sites.csv, sites.geojson, ...). */
  file: string;
  /** What one row is, for messages and the summary ("collection rows"). */
  rowName: string;
  lists: readonly UpstreamList[];
  columns: readonly string[];
  rows(record: UpstreamRow, names: LookupNames): Cell[][];
};

type Rec = Record<string, unknown>;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  // The contract returns elevation as a numeric string; a number stays a number in the file
  // (as text, "-5" would be taken for a formula and prefixed).
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};
const bool = (v: unknown): string | null => (typeof v === 'boolean' ? String(v) : null);
/**
 * A record a manager retired (DELETE sets `deactive_date`): it leaves the files as it leaves the
 * reports. An id that was not populated cannot tell, and stays.
 */
const retired = (v: unknown): boolean =>
  !!v && typeof v === 'object' && (v as Rec).deactive_date != null;
/** ISO 8601 UTC with milliseconds, whatever form the upstream sent. */
const iso = (v: unknown): string | null => {
  if (typeof v !== 'string' || v === '') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? v : new Date(t).toISOString();
};
/** `[longitude, latitude]` of a shape or of a location holding one. */
function lonLat(v: unknown): [number | null, number | null] {
  const holder = v as { shape?: { coordinates?: unknown }; coordinates?: unknown } | null;
  const c = holder?.shape?.coordinates ?? holder?.coordinates;
  return Array.isArray(c) ? [num(c[0]), num(c[1])] : [null, null];
}
/** Lure types as their codes, "; " between them (populated types, link records or plain ids). */
const lureCodes = (v: unknown, names: LookupNames): string | null => {
  if (!Array.isArray(v)) return null;
  const codes = v.map((l: unknown) =>
    l && typeof l === 'object' && 'lure' in l
      ? nameOf((l as Rec).lure, names.lure, 'code')
      : nameOf(l, names.lure, 'code'),
  );
  return codes.filter((c): c is string => c !== null).join('; ');
};

export const SITE_COLUMNS = [
  'site_id',
  'code',
  'name',
  'longitude',
  'latitude',
  'coordinate_precision',
  'active_date',
  'deactive_date',
  'address_1',
  'address_2',
  'city',
  'postal_code',
  'region',
  'elevation',
  'site_population',
  'land_usage',
  'land_usage_custom',
  'revision_comments',
  'comments',
  'add_date',
  'updated',
] as const;

function siteRow(s: UpstreamRow, names: LookupNames): Cell[] {
  const [lon, lat] = lonLat(s.shape);
  const landUsage = Array.isArray(s.site_land_usage) ? s.site_land_usage : [];
  const custom = Array.isArray(s.site_land_usage_custom) ? s.site_land_usage_custom : [];
  return [
    s.id,
    text(s.code),
    text(s.name),
    lon,
    lat,
    nameOf(s.coordinate_precision, names.coordinate_precision, 'name'),
    iso(s.active_date),
    iso(s.deactive_date),
    text(s.address_1),
    text(s.address_2),
    text(s.city),
    text(s.postal_code),
    nameOf(s.region, names.region, 'name'),
    num(s.elevation),
    text(s.site_population),
    landUsage.map((u) => nameOf(u, names.land_usage, 'name') ?? String(idOf(u))).join('; '),
    custom.filter((c) => typeof c === 'string').join('; '),
    text(s.revision_comments),
    text(s.comments),
    iso(s.add_date),
    iso(s.updated),
  ];
}

const SITES_LIST: UpstreamList = {
  name: 'sites',
  path: ENTITY.site.path,
  populate: ['coordinate_precision', 'region'],
};

const sitesCsv: ExportTable = {
  file: 'sites.csv',
  rowName: 'sites',
  lists: [SITES_LIST],
  columns: SITE_COLUMNS,
  rows: (s, names) => [siteRow(s, names)],
};

/** Sites as GeoJSON: the same columns as properties, minus the coordinates (the geometry). */
const sitesGeojson: ExportTable = {
  ...sitesCsv,
  file: 'sites.geojson',
};

const COLLECTION_COLUMNS = [
  'collection_id',
  'collection_num',
  'surv_year',
  'collection_date',
  'site_id',
  'site_code',
  'site_name',
  'longitude',
  'latitude',
  'trap_id',
  'trap',
  'num_trap',
  'trap_nights',
  'trap_problem',
  'lures',
  'identified_by',
  'comments',
  'abundance_id',
  'species_id',
  'species',
  'sex_id',
  'sex',
  'count',
  'add_date',
  'updated',
] as const;

/**
 * One row per abundance row of a collection; a collection with none (an empty trap) still gets
 * one row with the abundance columns empty, so no collection is silently left out.
 */
function collectionRows(c: UpstreamRow, names: LookupNames): Cell[][] {
  const site = c.site && typeof c.site === 'object' ? (c.site as Rec) : null;
  const [lon, lat] = lonLat(c.location);
  const base: Cell[] = [
    c.id,
    num(c.collection_num),
    num(c.surv_year),
    iso(c.collection_date),
    idOf(c.site),
    text(site?.code),
    text(site?.name),
    lon,
    lat,
    idOf(c.trap),
    nameOf(c.trap, names.trap, 'acronym'),
    num(c.num_trap),
    num(c.trap_nights),
    bool(c.trap_problem_bit),
    lureCodes(c.lures, names),
    text(c.identified_by),
    text(c.comments),
  ];
  const dates: Cell[] = [iso(c.add_date), iso(c.updated)];
  const arthropods = (Array.isArray(c.arthropods) ? (c.arthropods as Rec[]) : [])
    .filter((a) => a && a.deactive_date == null)
    .sort((a, b) => (idOf(a) ?? 0) - (idOf(b) ?? 0));
  if (arthropods.length === 0) return [[...base, null, null, null, null, null, null, ...dates]];
  return arthropods.map((a) => [
    ...base,
    idOf(a),
    idOf(a.species),
    nameOf(a.species, names.species, 'full_name'),
    idOf(a.sex),
    nameOf(a.sex, names.sex, 'name'),
    num(a.num_count),
    ...dates,
  ]);
}

const collectionsCsv: ExportTable = {
  file: 'collections.csv',
  rowName: 'collection rows',
  lists: [
    {
      name: 'collections',
      path: ENTITY.collection.path,
      populate: ['site', 'trap', 'arthropods', 'lures'],
    },
  ],
  columns: COLLECTION_COLUMNS,
  rows: (c, names) => (retired(c) ? [] : collectionRows(c, names)),
};

const POOL_COLUMNS = [
  'pool_id',
  'pool_num',
  'surv_year',
  'collection_date',
  'collection_id',
  'site_id',
  'site_code',
  'species_id',
  'species',
  'sex_id',
  'sex',
  'num_count',
  'trap',
  'lures',
  'primary_source_bit',
  'primary_source',
  'longitude',
  'latitude',
  'comments',
  'add_date',
  'updated',
] as const;

function poolRow(p: UpstreamRow, names: LookupNames): Cell[] {
  const site = p.site && typeof p.site === 'object' ? (p.site as Rec) : null;
  const [lon, lat] = lonLat(p.location);
  return [
    p.id,
    num(p.pool_num),
    num(p.surv_year),
    iso(p.collection_date),
    idOf(p.collection),
    idOf(p.site),
    text(site?.code),
    idOf(p.species),
    nameOf(p.species, names.species, 'full_name'),
    idOf(p.sex),
    nameOf(p.sex, names.sex, 'name'),
    num(p.num_count),
    nameOf(p.trap, names.trap, 'acronym'),
    lureCodes(p.lures, names),
    bool(p.primary_source_bit),
    idOf(p.primary_source),
    lon,
    lat,
    text(p.comments),
    iso(p.add_date),
    iso(p.updated),
  ];
}

/** Pools are listed per species type (the list's default is mosquitoes only): every type, in turn. */
const poolsCsv: ExportTable = {
  file: 'pools.csv',
  rowName: 'pools',
  lists: SPECIES_TYPES.map((type) => ({
    name: 'pools',
    path: ENTITY.pool.path,
    populate: ['site', 'species', 'sex', 'trap', 'lures'],
    extra: { type },
  })),
  columns: POOL_COLUMNS,
  rows: (p, names) => (retired(p) ? [] : [poolRow(p, names)]),
};

const POOL_TEST_COLUMNS = [
  'test_id',
  'pool_id',
  'pool_num',
  'collection_id',
  'collection_date',
  'species',
  'sex',
  'pool_count',
  'test_date',
  'method',
  'target',
  'result',
  'value',
  'test_agency',
  'comments',
  'add_date',
  'updated',
] as const;

function poolTestRow(t: UpstreamRow, names: LookupNames): Cell[] {
  const pool = t.pool && typeof t.pool === 'object' ? (t.pool as Rec) : null;
  return [
    t.id,
    idOf(t.pool),
    num(pool?.pool_num),
    idOf(pool?.collection),
    iso(pool?.collection_date),
    nameOf(pool?.species, names.species, 'full_name'),
    nameOf(pool?.sex, names.sex, 'name'),
    num(pool?.num_count),
    iso(t.test_date),
    nameOf(t.method, names.test_method, 'name'),
    nameOf(t.target, names.test_target, 'acronym'),
    nameOf(t.status, names.test_status, 'name'),
    num(t.value),
    nameOf(t.test_agency, names.agency, 'name'),
    text(t.comments),
    iso(t.add_date),
    iso(t.updated),
  ];
}

const poolTestsCsv: ExportTable = {
  file: 'pool-tests.csv',
  rowName: 'pool tests',
  lists: [
    {
      name: 'pool tests',
      path: ENTITY.poolTest.path,
      populate: ['pool', 'method', 'target', 'status', 'test_agency'],
    },
  ],
  columns: POOL_TEST_COLUMNS,
  // The pool list leaves out retired pools (and the pools of retired collections), but the test
  // list still holds their tests: a positive result of a deleted pool is not in the file.
  rows: (t, names) => (retired(t) || retired(t.pool) ? [] : [poolTestRow(t, names)]),
};

/** Every export, by the file name its route ends in. */
export const EXPORT_TABLES: readonly ExportTable[] = [
  sitesCsv,
  sitesGeojson,
  collectionsCsv,
  poolsCsv,
  poolTestsCsv,
];
