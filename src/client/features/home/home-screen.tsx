import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { Link } from 'wouter';
import type { CollectionRow, SiteRow } from '../../db/database';
import { useDb } from '../../db/db-context';
import { useDbGone } from '../../db/use-db-gone';
import { refreshLookups } from '../../db/refresh-lookups';
import { useLookups } from '../../db/use-lookups';
import { dayOf, formatDate, localDate, saySince } from '../../lib/dates';
import { useI18n } from '../../lib/i18n';
import { syncSummary, type SyncStatus } from '../../sync';
import { refId, type LookupsDocument } from '#shared';
import { LookupsNotice } from '../../ui/lookups-notice';

const REFRESH_FAILED = 'Could not download the lists: check the connection and try again.';
/** How many of the week's earlier collections Home lists (the site's page has the rest). */
const EARLIER_SHOWN = 10;

type Props = {
  userName: string;
  /** The engine's live status: Home counts it with syncSummary, as the sync bar does. */
  status: SyncStatus;
  online: boolean;
};

type CollectionItem = {
  collection: CollectionRow;
  site: SiteRow | undefined;
};

/**
 * What a row says about its catch: the trap (its count when more than one) and the total
 * counted, or "empty" — two traps at one site on one day must not read alike.
 */
function catchOf(collection: CollectionRow, traps: LookupsDocument['trap']): string {
  const data = collection.data;
  const trapId = refId(data.trap as number);
  const trap = traps.find((t) => t.id === trapId);
  const trapName = trap ? (trap.name ?? trap.acronym ?? `trap ${trap.id}`) : 'trap';
  const numTrap = typeof data.num_trap === 'number' ? data.num_trap : 1;
  const rows = Array.isArray(data.arthropods) ? data.arthropods : [];
  const counted = rows.reduce(
    (sum: number, row: { num_count?: unknown }) =>
      sum + (typeof row.num_count === 'number' ? row.num_count : 0),
    0,
  );
  return `${numTrap > 1 ? `${numTrap} × ` : ''}${trapName} · ${counted > 0 ? `${counted} counted` : 'empty'}`;
}

/** Collections as links to their pages: site, date, trap and catch, and whether they still wait to be sent. */
function CollectionList({ label, rows }: { label: string; rows: CollectionItem[] }) {
  const { lookups } = useLookups();
  return (
    <ul className="list" aria-label={label}>
      {rows.map(({ collection, site }) => (
        <li key={collection.localId}>
          <Link href={`/collections/${collection.localId}`} className="list-item">
            {site ? `${site.code} ${site.name}` : 'Unknown site'} ·{' '}
            {formatDate(
              collection.collectionDate,
              collection.data.collection_date_date_only === true,
            )}{' '}
            · {catchOf(collection, lookups.trap)}
            {collection.syncState !== 'synced' ? (
              <span className="tag">
                {/* As the "need fixing" tile counts them: refused or in conflict. */}
                {collection.syncState === 'failed' || collection.syncState === 'conflict'
                  ? 'needs fixing'
                  : 'not sent'}
              </span>
            ) : null}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * Home: today's and the week's collections, what waits to be sent or fixed, online or not.
 * Sync now is the sync bar's, always on screen: Home offers no second one.
 */
export function HomeScreen({ userName, status, online }: Props) {
  const db = useDb();
  const intl = useI18n();
  // The same counts as the sync bar: a change held behind a refused one is still not sent.
  const { waiting, attention, held } = syncSummary(status);
  // The database taken from this tab (cleared, or a newer app in another tab): nothing is saved
  // here any more, and the counts were this tab's last look at an outbox it can no longer read.
  const gone = useDbGone(db) !== null;
  const { loaded, storedAt } = useLookups();
  const [refreshing, setRefreshing] = useState(false);
  const [refreshFailed, setRefreshFailed] = useState(false);
  const refresh = async () => {
    setRefreshing(true);
    setRefreshFailed((await refreshLookups(db)) === 'failed');
    setRefreshing(false);
  };
  const today = localDate();
  const weekAgo = localDate(new Date(Date.now() - 6 * 86_400_000));
  const week = useLiveQuery(async () => {
    // Collection dates are stored as written (with offset) or as UTC from the server: compare by local day.
    const recent = await db.collections.orderBy('collectionDate').reverse().limit(300).toArray();
    // Only the sites these collections name: an agency may hold thousands.
    const siteIds = [
      ...new Set(recent.map((c) => c.parentLocalId).filter((id): id is string => id !== null)),
    ];
    const sites = new Map(
      (await db.sites.bulkGet(siteIds)).flatMap((s) => (s ? [[s.localId, s] as const] : [])),
    );
    const rows = recent
      .filter((c) => !c.deleted)
      .map((c) => ({
        collection: c,
        day: dayOf(c.collectionDate, c.data.collection_date_date_only === true),
        site: c.parentLocalId ? sites.get(c.parentLocalId) : undefined,
      }))
      .filter((r) => r.day >= weekAgo && r.day <= today)
      // Newest day first; ISO days sort as strings.
      .sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
    return {
      todays: rows.filter((r) => r.day === today),
      earlier: rows.filter((r) => r.day < today).slice(0, EARLIER_SHOWN),
    };
  }, [db, today, weekAgo]);
  return (
    <section className="screen">
      <h1>Hello, {userName}</h1>
      <LookupsNotice
        loaded={loaded}
        storedAt={storedAt}
        action={
          <button type="button" className="button" onClick={refresh} disabled={refreshing}>
            {refreshing ? 'Refreshing…' : 'Refresh'}
          </button>
        }
      />
      {refreshFailed && storedAt === null ? <p role="alert">{REFRESH_FAILED}</p> : null}
      {gone ? null : (
        <div className="tiles">
          <div className="tile">
            <span className="tile-number" data-testid="home-pending">
              {status.counted ? waiting : '…'}
            </span>
            <span>not sent yet</span>
          </div>
          <div className={attention > 0 ? 'tile tile-warn' : 'tile'}>
            <span className="tile-number" data-testid="home-parked">
              {status.counted ? attention : '…'}
            </span>
            <span>need fixing</span>
            {held > 0 ? (
              <span>
                {held === 1 ? '1 more change waits' : `${held} more changes wait`} on{' '}
                {attention === 1 ? 'it' : 'them'}
              </span>
            ) : null}
            {attention > 0 ? <Link href="/sync">Review</Link> : null}
          </div>
          <div className="tile">
            <span className={online ? 'dot dot-online' : 'dot dot-offline'} aria-hidden="true" />
            <span>{online ? 'Online' : 'Offline: saving on this tablet'}</span>
            {storedAt !== null ? (
              <span className="muted" data-testid="home-lookups-age">
                {saySince('Lists updated', storedAt)}
              </span>
            ) : null}
          </div>
        </div>
      )}
      <div className="row wrap">
        <Link href="/collections/new" className="button button-primary button-big">
          New collection
        </Link>
        <Link href="/sites" className="button button-big">
          Sites
        </Link>
        <Link href="/scan" className="button button-big">
          {intl.formatMessage({ id: 'scan.action', defaultMessage: 'Scan a label' })}
        </Link>
      </div>
      <h2>Today’s collections</h2>
      {week === undefined ? null : week.todays.length === 0 ? (
        <p className="muted">No collections today yet.</p>
      ) : (
        <>
          <CollectionList label="Today’s collections" rows={week.todays} />
          <Link href={`/labels?date=${localDate()}`} className="button">
            {intl.formatMessage({
              id: 'labels.todaysLabels',
              defaultMessage: 'Labels for today’s pools',
            })}
          </Link>
        </>
      )}
      {week && week.earlier.length > 0 ? (
        <>
          <h2>Earlier this week</h2>
          <CollectionList label="Earlier this week" rows={week.earlier} />
        </>
      ) : null}
    </section>
  );
}
