import { useMemo } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { createCollection } from '../../db/create-collection';
import { useDb } from '../../db/db-context';
import { updateCollection } from '../../db/update-collection';
import { useLookups } from '../../db/use-lookups';
import { useI18n } from '../../lib/i18n';
import { LookupsNotice } from '../../ui/lookups-notice';
import { mergeFormData } from '../../ui/form/merge-form-data';
import { draftKey } from '../../lib/drafts/draft-keys';
import { useRecordDraft } from '../../ui/form/use-record-draft';
import { CollectionForm, type CollectionSubmit } from './collection-form';
import { COLLECTION_FORM_KEYS, type CollectionHoldings } from './collection-schema';
import { useCollection, usePoolsOf, useRecentCollections, useSiteRow } from './use-collections';
import { useSiteChecks, withStoredSite } from '../../db/use-site-checks';
import { mayChangeCollection } from './may-change-collection';

/** New collection (optionally at `?site=<localId>`) / Edit collection. */
export function CollectionFormScreen({
  localId,
  onSaved,
}: {
  localId?: string;
  onSaved?: () => void;
}) {
  const db = useDb();
  const intl = useI18n();
  const t = intl.formatMessage;
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  const { lookups, loaded: listsRead, storedAt } = useLookups();
  const checks = useSiteChecks();
  const recent = useRecentCollections();
  const existing = useCollection(localId ?? '');
  // The collection's site as stored now: one just made (New collection here) may not be in the
  // site index's checks yet.
  const siteRow = useSiteRow(
    existing === undefined ? null : (existing?.parentLocalId ?? params.get('site')),
  );
  const sites = useMemo(
    () => (checks === undefined ? undefined : withStoredSite(checks, siteRow)),
    [checks, siteRow],
  );
  const pools = usePoolsOf(localId ?? '');
  const { opened, place, savedAgainst } = useRecordDraft({
    store: db.meta,
    form: 'collection',
    record: localId ?? null,
    parent: existing?.parentLocalId ?? params.get('site'),
    data: existing?.data,
    gone: Boolean(localId) && (existing === null || existing?.deleted === true),
  });
  // What the collection's pools and tests hold on this tablet: the form refuses an edit the
  // server would refuse (counts below the pools, a date after a test) before it is queued.
  const holdings = useMemo((): Omit<CollectionHoldings, 'describe'> | undefined => {
    if (!localId || !pools) return undefined;
    const testDays = pools
      .flatMap((p) => p.tests)
      .map((t) => String(t.data.test_date ?? '').slice(0, 10))
      .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))
      .sort();
    return {
      pools: pools.map(({ pool }) => ({
        species: Number(pool.data.species),
        sex: Number(pool.data.sex),
        num_count: Number(pool.data.num_count),
      })),
      firstTestDay: testDays[0] ?? null,
    };
  }, [localId, pools]);
  if (
    sites === undefined ||
    siteRow === undefined ||
    recent === undefined ||
    (localId && (existing === undefined || pools === undefined))
  )
    return <p>{t({ id: 'collections.loading', defaultMessage: 'Loading…' })}</p>;
  if (localId && !existing)
    return (
      <p role="alert">
        {t({
          id: 'collections.notOnTablet',
          defaultMessage: 'This collection is not on this tablet.',
        })}
      </p>
    );
  // A deleted record takes no edit (updateRecord refuses it): no form to type into for nothing.
  if (existing?.deleted)
    return (
      <p role="alert">
        {t({
          id: 'collections.deletedWaiting',
          defaultMessage: 'This collection was deleted: the deletion is waiting to be sent.',
        })}
      </p>
    );

  // Where Cancel goes: the collection, or the site (else home) a new one was started from.
  const startedAt = params.get('site');
  const cancelTo = localId ? `/collections/${localId}` : startedAt ? `/sites/${startedAt}` : '/';
  const save = async ({ siteLocalId, data }: CollectionSubmit) => {
    let target = localId;
    if (localId && existing && opened) {
      await updateCollection(
        db,
        localId,
        mergeFormData(opened, data, COLLECTION_FORM_KEYS),
        savedAgainst(),
        draftKey(place),
        siteLocalId,
      );
    } else target = await createCollection(db, siteLocalId, data, draftKey(place));
    onSaved?.();
    navigate(`/collections/${target}`);
  };
  return (
    <section className="screen">
      <h1>
        {localId
          ? t({ id: 'collections.editTitle', defaultMessage: 'Edit collection' })
          : t({ id: 'collections.newTitle', defaultMessage: 'New collection' })}
      </h1>
      <LookupsNotice loaded={listsRead} storedAt={storedAt} />
      <CollectionForm
        // A new collection at another site is another form (and another draft).
        key={localId ?? `new:${params.get('site') ?? ''}`}
        lookups={lookups}
        sites={sites}
        recent={recent}
        initialSiteLocalId={existing?.parentLocalId ?? params.get('site') ?? ''}
        siteLocked={existing ? !mayChangeCollection(existing) : false}
        initial={opened}
        holdings={holdings}
        problem={existing?.problem ?? null}
        onSubmit={save}
        onCancel={() => navigate(cancelTo)}
        draft={place}
      />
    </section>
  );
}
