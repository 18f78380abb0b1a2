import type { Cell } from '#shared/reports';
import type { BffContext } from '../context';
import { CSV_BOM, csvCell } from '../reports/report-csv';
import type { StoredSession } from '../session-store';
import type { ExportTable } from './export-tables';
import { lookupNames, type LookupNames } from './lookup-names';
import { upstreamPages, type UpstreamRow } from './upstream-pages';

export type OpenExport = {
  /** The file, chunk by chunk (one chunk per upstream page). */
  body: AsyncGenerator<string, void, undefined>;
  /** Rows (CSV lines after the header, or GeoJSON features) written so far; final once `body` ends. */
  written: () => number;
};

/**
 * Starts an export: reads the lookup names and the first upstream page before anything is sent,
 * so a signed-out session or an unreachable upstream is answered with its own status and error
 * body. After that the file streams; a failure then ends the body with an error (the route aborts
 * the response, so the download fails instead of looking complete).
 */
export async function openExport(
  ctx: BffContext,
  session: StoredSession,
  table: ExportTable,
  pageSize: number,
): Promise<OpenExport> {
  const names = lookupNames((await ctx.lookups.get(session.info.agency, session.token)).text);
  const pages = tablePages(ctx, session, table, pageSize);
  const first = await pages.next();
  let written = 0;
  const geojson = table.file.endsWith('.geojson');
  const render = geojson ? geojsonFeatures : csvLines;
  async function* body(): AsyncGenerator<string, void, undefined> {
    try {
      yield geojson ? '{"type":"FeatureCollection","features":[' : CSV_BOM + csvLine(table.columns);
      let page: UpstreamRow[] | undefined = first.done ? undefined : first.value;
      while (page) {
        const chunk = render(table, page, names, written);
        written += chunk.rows;
        if (chunk.text) yield chunk.text;
        const next = await pages.next();
        page = next.done ? undefined : next.value;
      }
    } finally {
      // Only once every row is out (or the export stopped): a file that failed has no ending.
      await pages.return();
    }
    if (geojson) yield '\n]}\n';
  }
  return { body: body(), written: () => written };
}

/** Pages of every list of the table in turn; a record listed twice (by a lax upstream) once. */
async function* tablePages(
  ctx: BffContext,
  session: StoredSession,
  table: ExportTable,
  pageSize: number,
): AsyncGenerator<UpstreamRow[], void, undefined> {
  // Ids rise within a list, so repeats are possible only across lists (pools, one list per type).
  const seen = table.lists.length > 1 ? new Set<number>() : null;
  for (const list of table.lists) {
    for await (const rows of upstreamPages(ctx, session, list, pageSize)) {
      if (!seen) {
        yield rows;
        continue;
      }
      const fresh = rows.filter((r) => !seen.has(r.id));
      for (const r of fresh) seen.add(r.id);
      yield fresh;
    }
  }
}

type Chunk = { text: string; rows: number };

function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

function csvLines(table: ExportTable, page: UpstreamRow[], names: LookupNames): Chunk {
  let text = '';
  let rows = 0;
  for (const record of page) {
    for (const row of table.rows(record, names)) {
      text += csvLine(row);
      rows += 1;
    }
  }
  return { text, rows };
}

/**
 * One Feature per line (JSON text never holds a raw line break), so a reader can count features
 * by lines. Properties are the table's columns but the coordinates, which are the geometry.
 */
function geojsonFeatures(
  table: ExportTable,
  page: UpstreamRow[],
  names: LookupNames,
  before: number,
): Chunk {
  let text = '';
  let rows = 0;
  const lon = table.columns.indexOf('longitude');
  const lat = table.columns.indexOf('latitude');
  for (const record of page) {
    for (const row of table.rows(record, names)) {
      const properties: Record<string, Cell> = {};
      table.columns.forEach((c, i) => {
        if (i !== lon && i !== lat) properties[c] = row[i] ?? null;
      });
      const geometry =
        row[lon] === null || row[lat] === null
          ? null
          : { type: 'Point', coordinates: [row[lon], row[lat]] };
      const feature = { type: 'Feature', id: record.id, geometry, properties };
      text += `${before + rows === 0 ? '' : ','}\n${JSON.stringify(feature)}`;
      rows += 1;
    }
  }
  return { text, rows };
}
