import type { IntlShape } from 'react-intl';

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
  /** The summary total shown before the download. */
  total: keyof ExportSummary;
};

/** Every download the BFF offers, in the order the panel shows them. */
export const EXPORT_FILES: readonly ExportFile[] = [
  { file: 'collections.csv', total: 'collections' },
  { file: 'pools.csv', total: 'pools' },
  { file: 'pool-tests.csv', total: 'pool_tests' },
  { file: 'sites.csv', total: 'sites' },
  { file: 'sites.geojson', total: 'sites' },
];

/** A file's words in the person's language: its title and what one row of it is. */
export type ExportWords = {
  title: string;
  contains: string;
  /** "1,234 collection rows": `rows` counted in the file's own unit. */
  rows: (count: number) => string;
  /** "The server holds 1,234 collections." */
  holds: (count: number) => string;
};

export function exportWords(intl: IntlShape, file: ExportFile['file']): ExportWords {
  const t = intl.formatMessage;
  switch (file) {
    case 'collections.csv':
      return {
        title: t({ id: 'exports.collections.title', defaultMessage: 'Collections (CSV)' }),
        contains: t({
          id: 'exports.collections.contains',
          defaultMessage:
            'One row per species and sex counted in a collection; an empty trap gets one row with no species.',
        }),
        rows: (count) =>
          t(
            {
              id: 'exports.collections.rows',
              defaultMessage: '{count, plural, one {# collection row} other {# collection rows}}',
            },
            { count },
          ),
        holds: (count) =>
          t(
            {
              id: 'exports.collections.holds',
              defaultMessage:
                'The server holds {count, plural, one {# collection} other {# collections}}.',
            },
            { count },
          ),
      };
    case 'pools.csv':
      return {
        title: t({ id: 'exports.pools.title', defaultMessage: 'Pools (CSV)' }),
        contains: t({
          id: 'exports.pools.contains',
          defaultMessage: 'One row per pool: species, sex, count, its collection and site.',
        }),
        rows: (count) =>
          t(
            {
              id: 'exports.pools.rows',
              defaultMessage: '{count, plural, one {# pool} other {# pools}}',
            },
            { count },
          ),
        holds: (count) =>
          t(
            {
              id: 'exports.pools.holds',
              defaultMessage: 'The server holds {count, plural, one {# pool} other {# pools}}.',
            },
            { count },
          ),
      };
    case 'pool-tests.csv':
      return {
        title: t({ id: 'exports.poolTests.title', defaultMessage: 'Pool tests (CSV)' }),
        contains: t({
          id: 'exports.poolTests.contains',
          defaultMessage: 'One row per test: method, target, result and the pool tested.',
        }),
        rows: (count) =>
          t(
            {
              id: 'exports.poolTests.rows',
              defaultMessage: '{count, plural, one {# pool test} other {# pool tests}}',
            },
            { count },
          ),
        holds: (count) =>
          t(
            {
              id: 'exports.poolTests.holds',
              defaultMessage:
                'The server holds {count, plural, one {# pool test} other {# pool tests}}.',
            },
            { count },
          ),
      };
    default: {
      const geojson = file.endsWith('.geojson');
      return {
        title: geojson
          ? t({ id: 'exports.sitesGeojson.title', defaultMessage: 'Sites (GeoJSON)' })
          : t({ id: 'exports.sites.title', defaultMessage: 'Sites (CSV)' }),
        contains: geojson
          ? t({
              id: 'exports.sitesGeojson.contains',
              defaultMessage: 'The sites as map points, for GIS software.',
            })
          : t({
              id: 'exports.sites.contains',
              defaultMessage: 'One row per site: code, name, coordinates and address.',
            }),
        rows: (count) =>
          t(
            {
              id: 'exports.sites.rows',
              defaultMessage: '{count, plural, one {# site} other {# sites}}',
            },
            { count },
          ),
        holds: (count) =>
          t(
            {
              id: 'exports.sites.holds',
              defaultMessage: 'The server holds {count, plural, one {# site} other {# sites}}.',
            },
            { count },
          ),
      };
    }
  }
}
