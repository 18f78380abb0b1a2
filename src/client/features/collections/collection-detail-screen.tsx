import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import {
  lureTypeIds,
  refId,
  type CollectionCreate,
  type CollectionLure,
  type LookupsDocument,
} from '#shared';
import type { CollectionRow, PoolRow, PoolTestRow } from '../../db/database';
import { useDb } from '../../db/db-context';
import { deleteCollection } from '../../db/delete-collection';
import { collectionNumberOf, poolNumberOf } from '../../db/record-numbers';
import { RepositoryError } from '../../db/repository-error';
import { useLookups } from '../../db/use-lookups';
import { dateIn, translateRule, useI18n } from '../../lib/i18n';
import { loadIdentity } from '../../lib/identity';
import { Banner } from '../../ui/banner';
import { Dialog } from '../../ui/dialog';
import { CollectionTitle, PoolTitle } from '../../ui/record-number';
import { mayChangeCollection } from './may-change-collection';
import { useCollection, useMayDeleteCollection, usePoolsOf, useSiteRow } from './use-collections';

type AnyRow = CollectionRow | PoolRow | PoolTestRow;

const nameIn = (
  list: readonly {
    id: number;
    name?: string;
    display_name?: string | null;
    full_name?: string;
    acronym?: string | null;
  }[],
  id: unknown,
) => {
  const item = list.find((x) => x.id === refId(id as number));
  return item
    ? (item.display_name ?? item.full_name ?? item.acronym ?? item.name ?? String(item.id))
    : `#${String(id)}`;
};

function TestLine({
  test,
  label,
  editable,
  lookups,
  renderBadge,
}: {
  test: PoolTestRow;
  /** Accessible name of its edit link, e.g. "Edit test result 1 of pool 2". */
  label: string;
  editable: boolean;
  lookups: LookupsDocument;
  renderBadge?: (row: AnyRow) => ReactNode;
}) {
  const d = test.data;
  const intl = useI18n();
  const t = intl.formatMessage;
  return (
    <li className="row wrap">
      <span>
        {t(
          {
            id: 'collectionDetail.testLine',
            defaultMessage:
              '{target} by {method}: <b>{status}</b>{hasValue, select, yes { (Ct {value})} other {}} · {day}',
          },
          {
            target: nameIn(lookups.test_target, d.target),
            method: nameIn(lookups.test_method, d.method),
            status: nameIn(lookups.test_status, d.status),
            hasValue: typeof d.value === 'number' ? 'yes' : 'no',
            value: typeof d.value === 'number' ? intl.formatNumber(d.value) : '',
            day: dateIn(intl, String(d.test_date ?? ''), true),
            b: (text) => <strong key="status">{text}</strong>,
          },
        )}
      </span>
      {renderBadge?.(test)}
      {editable ? (
        <Link href={`/pool-tests/${test.localId}/edit`} className="button" aria-label={label}>
          {t({ id: 'collectionDetail.editTest', defaultMessage: 'Edit' })}
        </Link>
      ) : null}
    </li>
  );
}

/** A lure type by its code and description, as the form lists it. */
function lureName(lookups: LookupsDocument, id: number): string {
  const lure = lookups.lure.find((l) => l.id === id);
  if (!lure) return `#${id}`;
  return lure.description ? `${lure.code} (${lure.description})` : lure.code;
}

/** A collection: where and when, its abundance rows, its pools and their test results. */
export function CollectionDetailScreen({
  localId,
  renderBadge,
  renderHistory,
}: {
  localId: string;
  renderBadge?: (row: AnyRow) => ReactNode;
  /**
   * The record's History panel (composed in app/), given its server id (null: not sent yet) and
   * the server's `updated` it last saw (the panel reads again when that moves).
   */
  renderHistory?: (serverId: number | null, serverUpdated: string | null) => ReactNode;
}) {
  const db = useDb();
  const intl = useI18n();
  const t = intl.formatMessage;
  const [, navigate] = useLocation();
  const collection = useCollection(localId);
  const site = useSiteRow(collection?.parentLocalId ?? null);
  const pools = usePoolsOf(localId);
  const mayDelete = useMayDeleteCollection(collection);
  const { lookups } = useLookups();
  const [error, setError] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  if (collection === undefined)
    return <p>{t({ id: 'collections.loading', defaultMessage: 'Loading…' })}</p>;
  if (collection === null)
    return (
      <p role="alert">
        {t({
          id: 'collections.notOnTablet',
          defaultMessage: 'This collection is not on this tablet.',
        })}
      </p>
    );
  const data = collection.data as Partial<CollectionCreate>;
  const rows = data.arthropods ?? [];
  const total = rows.reduce((sum, r) => sum + r.num_count, 0);
  const lures = lureTypeIds(data.lures as CollectionLure[] | undefined);
  // A deleted collection's pools and tests go with it on the server (contract §6): nothing is
  // changed or added under it, or the server would refuse it once the deletion is sent.
  const editable = !collection.deleted;
  // Only managers delete what the server has (contract §7): a technician's delete would be
  // refused at sync while the collection stays. Discarding one never sent is anyone's; one the
  // tablet has tried to send may be on the server already (useMayDeleteCollection).
  const deletable = mayDelete === true;
  const agency = loadIdentity()?.agency.name;

  const remove = async () => {
    setConfirmingDelete(false);
    try {
      await deleteCollection(db, localId);
      navigate(site ? `/sites/${site.localId}` : '/');
    } catch (e) {
      setError(e instanceof RepositoryError ? translateRule(intl, e.message) : String(e));
    }
  };
  return (
    <section className="screen">
      <div className="screen-head">
        <h1>
          <CollectionTitle
            number={collectionNumberOf(collection)}
            date={dateIn(intl, collection.collectionDate, data.collection_date_date_only === true)}
          />
        </h1>
        {renderBadge?.(collection)}
      </div>
      {collection.deleted ? (
        <Banner tone="warn">
          {t({
            id: 'collectionDetail.deleted',
            defaultMessage: 'Deleted: the deletion is waiting to be sent.',
          })}
        </Banner>
      ) : null}
      {error ? <Banner tone="error">{error}</Banner> : null}
      <dl className="facts">
        <dt>{t({ id: 'collectionDetail.site', defaultMessage: 'Site' })}</dt>
        <dd>
          {site ? <Link href={`/sites/${site.localId}`}>{`${site.code} ${site.name}`}</Link> : '—'}
        </dd>
        <dt>{t({ id: 'collectionDetail.trap', defaultMessage: 'Trap' })}</dt>
        <dd>
          {t(
            {
              id: 'collectionDetail.trapLine',
              defaultMessage:
                '{trap} · {traps, plural, one {# trap} other {# traps}} · {nights, plural, one {# night} other {# nights}}{problem, select, yes { · trap problem} other {}}',
            },
            {
              trap: nameIn(lookups.trap, data.trap),
              traps: data.num_trap ?? 0,
              nights: data.trap_nights ?? 0,
              problem: data.trap_problem_bit ? 'yes' : 'no',
            },
          )}
        </dd>
        <dt>{t({ id: 'collectionDetail.lures', defaultMessage: 'Lures' })}</dt>
        <dd>
          {lures.length > 0
            ? lures.map((id) => lureName(lookups, id)).join(', ')
            : t({ id: 'collectionDetail.noLures', defaultMessage: 'None' })}
        </dd>
        {data.identified_by ? (
          <>
            <dt>{t({ id: 'collectionDetail.identifiedBy', defaultMessage: 'Identified by' })}</dt>
            <dd>{data.identified_by}</dd>
          </>
        ) : null}
        {data.comments ? (
          <>
            <dt>{t({ id: 'form.comments', defaultMessage: 'Comments' })}</dt>
            <dd>{data.comments}</dd>
          </>
        ) : null}
      </dl>
      {editable ? (
        <div className="row wrap">
          <Link href={`/collections/${localId}/edit`} className="button">
            {t({ id: 'collectionDetail.edit', defaultMessage: 'Edit collection' })}
          </Link>
          {/* An empty trap has nothing to pool: the pools screen would offer nothing to save. */}
          {total > 0 ? (
            <Link href={`/collections/${localId}/pools`} className="button button-primary">
              {t({ id: 'collectionDetail.makePools', defaultMessage: 'Make pools' })}
            </Link>
          ) : null}
          {deletable ? (
            <button
              type="button"
              className="button button-danger"
              onClick={() => setConfirmingDelete(true)}
            >
              {t({ id: 'collectionDetail.delete', defaultMessage: 'Delete collection' })}
            </button>
          ) : null}
        </div>
      ) : null}
      {editable && total === 0 ? (
        <p className="muted">
          {t({
            id: 'collectionDetail.nothingToPool',
            defaultMessage: 'Nothing to pool: no mosquitoes were counted in this trap.',
          })}
        </p>
      ) : null}
      {editable && mayDelete === false ? (
        <p className="muted">
          <span>
            {collection.serverId === null
              ? t({
                  id: 'collectionDetail.maybeOnServer',
                  defaultMessage:
                    'The tablet has tried to send it, so it may already be on the server, where only a manager can delete it.',
                })
              : t({
                  id: 'records.onlyManagerDeletes',
                  defaultMessage: 'Only a manager can delete a record that is on the server.',
                })}
          </span>{' '}
          <span>
            {agency
              ? t(
                  {
                    id: 'collectionDetail.askManagerOf',
                    defaultMessage: 'To have it deleted, ask a manager of {agency}.',
                  },
                  { agency },
                )
              : t({
                  id: 'collectionDetail.askManager',
                  defaultMessage: 'To have it deleted, ask a manager of your agency.',
                })}
            {mayChangeCollection(collection)
              ? ` ${t({
                  id: 'collectionDetail.wrongSite',
                  defaultMessage:
                    'Entered at the wrong site? Edit the collection and change its site.',
                })}`
              : ''}
          </span>
        </p>
      ) : null}
      <Dialog
        open={confirmingDelete}
        title={t({
          id: 'collectionDetail.deleteQuestion',
          defaultMessage: 'Delete this collection?',
        })}
        onClose={() => setConfirmingDelete(false)}
      >
        <p>
          {collection.serverId === null
            ? t({
                id: 'collectionDetail.deleteUnsent',
                defaultMessage:
                  'It has not been sent: its counts leave this tablet and are never sent.',
              })
            : t({
                id: 'collectionDetail.deleteSent',
                defaultMessage:
                  'Its counts, pools and test results go from the server too once the deletion is sent.',
              })}
        </p>
        <div className="row wrap">
          <button
            type="button"
            className="button button-primary"
            autoFocus
            onClick={() => setConfirmingDelete(false)}
          >
            {t({ id: 'collectionDetail.keep', defaultMessage: 'Keep it' })}
          </button>
          <button type="button" className="button button-danger" onClick={() => void remove()}>
            {t({ id: 'collectionDetail.delete', defaultMessage: 'Delete collection' })}
          </button>
        </div>
      </Dialog>
      <h2>{t({ id: 'abundance.title', defaultMessage: 'Abundance' })}</h2>
      {rows.length === 0 ? (
        <p className="muted">
          {t({ id: 'collectionDetail.emptyTrap', defaultMessage: 'Nothing counted (empty trap).' })}
        </p>
      ) : (
        // A phone with large text scrolls the table, not the screen.
        <div
          className="table-scroll"
          role="region"
          aria-label={t({ id: 'collectionDetail.counts', defaultMessage: 'Abundance counts' })}
          tabIndex={0}
        >
          <table className="table">
            <thead>
              <tr>
                <th scope="col">
                  {t({ id: 'collectionDetail.species', defaultMessage: 'Species' })}
                </th>
                <th scope="col">{t({ id: 'collectionDetail.sex', defaultMessage: 'Sex' })}</th>
                <th scope="col">{t({ id: 'collectionDetail.count', defaultMessage: 'Count' })}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.species}:${r.sex}`}>
                  <td>{nameIn(lookups.species, r.species)}</td>
                  <td>{nameIn(lookups.sex, r.sex)}</td>
                  <td>{intl.formatNumber(r.num_count)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  {t({ id: 'collectionDetail.total', defaultMessage: 'Total' })}
                </th>
                <td>{intl.formatNumber(total)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
      <h2>{t({ id: 'collectionDetail.pools', defaultMessage: 'Pools' })}</h2>
      {pools && pools.length > 0 && editable ? (
        <div className="row wrap">
          <Link href={`/labels?collection=${localId}`} className="button">
            {intl.formatMessage({ id: 'labels.printLabels', defaultMessage: 'Print labels' })}
          </Link>
          <Link href={`/manifest?collection=${localId}`} className="button">
            {intl.formatMessage({ id: 'labels.labManifest', defaultMessage: 'Lab manifest' })}
          </Link>
        </div>
      ) : null}
      {pools && pools.length > 0 ? (
        <ul
          className="list"
          aria-label={t({ id: 'collectionDetail.pools', defaultMessage: 'Pools' })}
        >
          {pools.map(({ pool, tests }, i) => {
            // Links name the pool as its card does: by its number once it has one, by its place
            // until then (equal pools keep their places: use-collections.ts).
            const poolName = String(poolNumberOf(pool) ?? i + 1);
            return (
              <li key={pool.localId} className="card">
                <div className="row wrap">
                  <strong>
                    <PoolTitle
                      number={poolNumberOf(pool)}
                      place={i + 1}
                      what={`${nameIn(lookups.species, pool.data.species)} ${nameIn(lookups.sex, pool.data.sex)}`}
                      count={pool.data.num_count}
                    />
                  </strong>
                  {renderBadge?.(pool)}
                  {editable ? (
                    <>
                      <Link
                        href={`/pools/${pool.localId}/edit`}
                        className="button"
                        aria-label={t(
                          {
                            id: 'collectionDetail.editPoolNamed',
                            defaultMessage: 'Edit pool {pool}',
                          },
                          { pool: poolName },
                        )}
                      >
                        {t({ id: 'collectionDetail.editPool', defaultMessage: 'Edit pool' })}
                      </Link>
                      <Link href={`/pools/${pool.localId}/tests/new`} className="button">
                        {t({ id: 'collectionDetail.addTest', defaultMessage: 'Add test result' })}
                      </Link>
                    </>
                  ) : null}
                </div>
                {tests.length > 0 ? (
                  <ul className="tests">
                    {tests.map((test, j) => (
                      <TestLine
                        key={test.localId}
                        test={test}
                        label={t(
                          {
                            id: 'collectionDetail.editTestNamed',
                            defaultMessage: 'Edit test result {n} of pool {pool}',
                          },
                          { n: j + 1, pool: poolName },
                        )}
                        editable={editable}
                        lookups={lookups}
                        renderBadge={renderBadge}
                      />
                    ))}
                  </ul>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">
          {t({ id: 'collectionDetail.noPools', defaultMessage: 'No pools yet.' })}
        </p>
      )}
      {renderHistory?.(collection.serverId, collection.baseUpdated)}
    </section>
  );
}
