import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { SiteCreate } from '../../../shared';
import type { SiteRow } from '../../db/database';
import { useLookups } from '../../db/use-lookups';
import { formatDate } from '../../lib/dates';
import { useSite, useSiteCollections } from './use-sites';

function totalOf(data: Record<string, unknown>): number {
  const rows = (data.arthropods as { num_count: number }[] | undefined) ?? [];
  return rows.reduce((sum, r) => sum + (r.num_count ?? 0), 0);
}

/** A site's details and its recent collections. */
export function SiteDetailScreen({
  localId,
  renderBadge,
}: {
  localId: string;
  renderBadge?: (row: SiteRow) => ReactNode;
}) {
  const site = useSite(localId);
  const collections = useSiteCollections(localId);
  const { lookups } = useLookups();
  if (site === undefined) return <p>Loading…</p>;
  if (site === null) return <p role="alert">This site is not on this tablet.</p>;
  const data = site.data as Partial<SiteCreate>;
  const [lon, lat] = data.shape?.coordinates ?? [];
  const precision = lookups.coordinate_precision.find((p) => p.id === data.coordinate_precision);
  return (
    <section className="screen">
      <div className="screen-head">
        <h1>
          {site.code} {site.name}
        </h1>
        {renderBadge?.(site)}
      </div>
      <dl className="facts">
        <dt>Coordinates</dt>
        <dd>
          {lat}, {lon} {precision ? `(${precision.name})` : null}
        </dd>
        {data.address_1 ? (
          <>
            <dt>Address</dt>
            <dd>
              {[data.address_1, data.address_2, data.city, data.postal_code]
                .filter(Boolean)
                .join(', ')}
            </dd>
          </>
        ) : null}
        {data.site_population ? (
          <>
            <dt>Population</dt>
            <dd>{data.site_population}</dd>
          </>
        ) : null}
        {data.comments ? (
          <>
            <dt>Comments</dt>
            <dd>{data.comments}</dd>
          </>
        ) : null}
      </dl>
      <div className="row">
        <Link href={`/collections/new?site=${site.localId}`} className="button button-primary">
          New collection here
        </Link>
        {site.code !== '000000' ? (
          <Link href={`/sites/${site.localId}/edit`} className="button">
            Edit site
          </Link>
        ) : null}
      </div>
      <h2>Recent collections</h2>
      {collections && collections.length > 0 ? (
        <ul className="list" aria-label="Recent collections">
          {collections.map((c) => (
            <li key={c.localId}>
              <Link href={`/collections/${c.localId}`} className="list-item">
                {formatDate(c.collectionDate, Boolean(c.data.collection_date_date_only))} ·{' '}
                {totalOf(c.data)} counted
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No collections at this site on this tablet.</p>
      )}
    </section>
  );
}
