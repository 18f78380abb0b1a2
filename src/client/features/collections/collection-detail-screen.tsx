import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { lureTypeIds, type CollectionCreate, type CollectionLure } from '#shared';
import { useDb } from '../../db/db-context';
import { deleteCollection } from '../../db/delete-collection';
import { collectionNumberOf } from '../../db/record-numbers';
import { RepositoryError } from '../../db/repository-error';
import { useLookups } from '../../db/use-lookups';
import { dateIn, translateRule, useI18n } from '../../lib/i18n';
import { Banner } from '../../ui/banner';
import { CollectionTitle } from '../../ui/record-number';
import { AbundanceCounts } from './abundance-counts';
import { DeleteCollectionDialog, WhyNotDeletable } from './collection-deletion';
import { CollectionPools, type AnyRow } from './collection-pools';
import { lureName, nameIn } from './lookup-names';
import { useCollection, useMayDeleteCollection, usePoolsOf, useSiteRow } from './use-collections';
import type { RenderHistory } from '../../ui/render-history';

/** A collection: where and when, its abundance rows, its pools and their test results. */
export function CollectionDetailScreen({
  localId,
  renderBadge,
  renderHistory,
}: {
  localId: string;
  renderBadge?: (row: AnyRow) => ReactNode;
  renderHistory?: RenderHistory;
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
      {editable && mayDelete === false ? <WhyNotDeletable collection={collection} /> : null}
      <DeleteCollectionDialog
        open={confirmingDelete}
        collection={collection}
        onKeep={() => setConfirmingDelete(false)}
        onDelete={() => void remove()}
      />
      <AbundanceCounts rows={rows} total={total} lookups={lookups} />
      <CollectionPools
        localId={localId}
        pools={pools}
        editable={editable}
        lookups={lookups}
        renderBadge={renderBadge}
      />
      {renderHistory?.(collection.serverId, collection.baseUpdated)}
    </section>
  );
}
