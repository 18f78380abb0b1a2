/** Downloads of the agency's data as the server holds it (CSV per entity, sites as GeoJSON). */
export function ExportPanel() {
  return (
    <section aria-labelledby="export-heading">
      <h2 id="export-heading">Download the agency&apos;s data</h2>
    </section>
  );
}
