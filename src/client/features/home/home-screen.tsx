import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { Link } from 'wouter';
import type { CollectionRow, SiteRow } from '../../db/database';
import { useDb } from '../../db/db-context';
import { useDbGone } from '../../db/use-db-gone';
import { refreshLookups } from '../../db/refresh-lookups';
import { useLookups } from '../../db/use-lookups';
import type { IntlShape } from 'react-intl';
import { dayOf, localDate } from '../../lib/dates';
import { dateIn, sinceIn, useI18n } from '../../lib/i18n';
import { syncSummary, type SyncStatus } from '../../sync';
import { refId, type LookupsDocument } from '#shared';
import { LookupsNotice } from '../../ui/lookups-notice';

/** How many of the week's earlier collections Home lists (the site's page has the rest). */
const EARLIER_SHOWN = 10;

/** What Home reads of the engine's status: the outbox's counts, and whether they are known. */
export type HomeSyncCounts = Pick<
  SyncStatus,
  'counted' | 'pending' | 'sending' | 'parked' | 'conflict' | 'held'
>;

/** Home's part of the status (useSyncStatusOf): not the pull's progress nor the drain's. */
export const homeSyncCounts = ({
  counted,
  pending,
  sending,
  parked,
  conflict,
  held,
}: SyncStatus): HomeSyncCounts => ({ counted, pending, sending, parked, conflict, held });

type Props = {
  userName: string;
  /** The engine's counts: Home counts them with syncSummary, as the sync bar does. */
  status: HomeSyncCounts;
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
function catchOf(
  intl: IntlShape,
  collection: CollectionRow,
  traps: LookupsDocument['trap'],
): string {
  const data = collection.data;
  const trapId = refId(data.trap as number);
  const trap = traps.find((t) => t.id === trapId);
  const trapName =
    (trap ? (trap.name ?? trap.acronym) : null) ??
    intl.formatMessage(
      { id: 'home.trapUnnamed', defaultMessage: '{id, select, none {trap} other {trap {id}}}' },
      { id: trap ? String(trap.id) : 'none' },
    );
  const numTrap = typeof data.num_trap === 'number' ? data.num_trap : 1;
  const rows = Array.isArray(data.arthropods) ? data.arthropods : [];
  const counted = rows.reduce(
    (sum: number, row: { num_count?: unknown }) =>
      sum + (typeof row.num_count === 'number' ? row.num_count : 0),
    0,
  );
  return intl.formatMessage(
    {
      id: 'home.catch',
      defaultMessage:
        '{traps, plural, one {} other {# × }}{trap} · {counted, plural, =0 {empty} other {# counted}}',
    },
    { traps: numTrap, trap: trapName, counted },
  );
}

/** Collections as links to their pages: site, date, trap and catch, and whether they still wait to be sent. */
function CollectionList({ label, rows }: { label: string; rows: CollectionItem[] }) {
  const { lookups } = useLookups();
  const intl = useI18n();
  const t = intl.formatMessage;
  return (
    <ul className="list" aria-label={label}>
      {rows.map(({ collection, site }) => (
        <li key={collection.localId}>
          <Link href={`/collections/${collection.localId}`} className="list-item">
            {site
              ? `${site.code} ${site.name}`
              : t({ id: 'home.unknownSite', defaultMessage: 'Unknown site' })}{' '}
            ·{' '}
            {dateIn(
              intl,
              collection.collectionDate,
              collection.data.collection_date_date_only === true,
            )}{' '}
            · {catchOf(intl, collection, lookups.trap)}
            {collection.syncState !== 'synced' ? (
              <span className="tag">
                {/* As the "need fixing" tile counts them: refused or in conflict. */}
                {collection.syncState === 'failed' || collection.syncState === 'conflict'
                  ? t({ id: 'siteList.needsFixing', defaultMessage: 'needs fixing' })
                  : t({ id: 'siteList.notSent', defaultMessage: 'not sent' })}
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
  const t = intl.formatMessage;
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
  const counting = t({ id: 'home.counting', defaultMessage: '…' });
  // Null when the lists were stamped while the clock ran ahead: never "just now" then.
  const listsAge = storedAt !== null ? sinceIn(intl, storedAt) : null;
  const todaysLabel = t({ id: 'home.today', defaultMessage: 'Today’s collections' });
  const earlierLabel = t({ id: 'home.earlier', defaultMessage: 'Earlier this week' });
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
      <h1>{t({ id: 'home.hello', defaultMessage: 'Hello, {name}' }, { name: userName })}</h1>
      <LookupsNotice
        loaded={loaded}
        storedAt={storedAt}
        action={
          <button type="button" className="button" onClick={refresh} disabled={refreshing}>
            {refreshing
              ? t({ id: 'home.refreshing', defaultMessage: 'Refreshing…' })
              : t({ id: 'home.refresh', defaultMessage: 'Refresh' })}
          </button>
        }
      />
      {refreshFailed && storedAt === null ? (
        <p role="alert">
          {t({
            id: 'home.refreshFailed',
            defaultMessage: 'Could not download the lists: check the connection and try again.',
          })}
        </p>
      ) : null}
      {gone ? null : (
        <div className="tiles">
          <div className="tile">
            <span className="tile-number" data-testid="home-pending">
              {status.counted ? intl.formatNumber(waiting) : counting}
            </span>
            <span>{t({ id: 'home.notSent', defaultMessage: 'not sent yet' })}</span>
          </div>
          <div className={attention > 0 ? 'tile tile-warn' : 'tile'}>
            <span className="tile-number" data-testid="home-parked">
              {status.counted ? intl.formatNumber(attention) : counting}
            </span>
            <span>{t({ id: 'home.needFixing', defaultMessage: 'need fixing' })}</span>
            {held > 0 ? (
              <span>
                {t(
                  {
                    id: 'home.heldOn',
                    defaultMessage:
                      '{held, plural, one {# more change waits} other {# more changes wait}} on {attention, plural, one {it} other {them}}',
                  },
                  { held, attention },
                )}
              </span>
            ) : null}
            {attention > 0 ? (
              <Link href="/sync">{t({ id: 'home.review', defaultMessage: 'Review' })}</Link>
            ) : null}
          </div>
          <div className="tile">
            <span className={online ? 'dot dot-online' : 'dot dot-offline'} aria-hidden="true" />
            <span>
              {online
                ? t({ id: 'home.online', defaultMessage: 'Online' })
                : t({ id: 'home.offline', defaultMessage: 'Offline: saving on this tablet' })}
            </span>
            {storedAt !== null ? (
              <span className="muted" data-testid="home-lookups-age">
                {listsAge === null
                  ? t({
                      id: 'home.listsUpdatedUnknown',
                      defaultMessage:
                        'Lists updated: time unknown (the tablet’s clock was changed)',
                    })
                  : t(
                      { id: 'home.listsUpdated', defaultMessage: 'Lists updated {since}' },
                      { since: listsAge },
                    )}
              </span>
            ) : null}
          </div>
        </div>
      )}
      <div className="row wrap">
        <Link href="/collections/new" className="button button-primary button-big">
          {t({ id: 'collections.newTitle', defaultMessage: 'New collection' })}
        </Link>
        <Link href="/sites" className="button button-big">
          {t({ id: 'siteList.title', defaultMessage: 'Sites' })}
        </Link>
        <Link href="/scan" className="button button-big">
          {intl.formatMessage({ id: 'scan.action', defaultMessage: 'Scan a label' })}
        </Link>
      </div>
      <h2>{todaysLabel}</h2>
      {week === undefined ? null : week.todays.length === 0 ? (
        <p className="muted">
          {t({ id: 'home.noneToday', defaultMessage: 'No collections today yet.' })}
        </p>
      ) : (
        <>
          <CollectionList label={todaysLabel} rows={week.todays} />
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
          <h2>{earlierLabel}</h2>
          <CollectionList label={earlierLabel} rows={week.earlier} />
        </>
      ) : null}
    </section>
  );
}
