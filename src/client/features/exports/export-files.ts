/** What the summary route answers: the server's totals per list (null where it does not say). */
export type ExportSummary = {
  sites: number | null;
  collections: number | null;
  pools: number | null;
  pool_tests: number | null;
};

export type ExportFile = {
  /** The route's last segment: GET /api/export/<file>. */
  file: string;
  title: string;
  contains: string;
  /** What one row of the file is, for "Downloaded 1,234 collection rows". */
  rowName: string;
  /** The summary total shown before the download, and what it counts. */
  total: { key: keyof ExportSummary; noun: string };
};

/** Every download the BFF offers, in the order the panel shows them. */
export const EXPORT_FILES: readonly ExportFile[] = [
  {
    file: 'collections.csv',
    title: 'Collections (CSV)',
    contains:
      'One row per species and sex counted in a collection; an empty trap gets one row with no species.',
    rowName: 'collection rows',
    total: { key: 'collections', noun: 'collections' },
  },
  {
    file: 'pools.csv',
    title: 'Pools (CSV)',
    contains: 'One row per pool: species, sex, count, its collection and site.',
    rowName: 'pools',
    total: { key: 'pools', noun: 'pools' },
  },
  {
    file: 'pool-tests.csv',
    title: 'Pool tests (CSV)',
    contains: 'One row per test: method, target, result and the pool tested.',
    rowName: 'pool tests',
    total: { key: 'pool_tests', noun: 'pool tests' },
  },
  {
    file: 'sites.csv',
    title: 'Sites (CSV)',
    contains: 'One row per site: code, name, coordinates and address.',
    rowName: 'sites',
    total: { key: 'sites', noun: 'sites' },
  },
  {
    file: 'sites.geojson',
    title: 'Sites (GeoJSON)',
    contains: 'The sites as map points, for GIS software.',
    rowName: 'sites',
    total: { key: 'sites', noun: 'sites' },
  },
];
