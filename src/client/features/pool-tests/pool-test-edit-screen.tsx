import { useLiveQuery } from 'dexie-react-hooks';
import { useLocation } from 'wouter';
import type { PoolTestData } from '../../db/create-pool-test';
import { useDb } from '../../db/db-context';
import { useI18n } from '../../lib/i18n';
import { updateRecord } from '../../db/update-record';
import { useLookups } from '../../db/use-lookups';
import { readPoolTestLineage } from '../../db/record-reads';
import { dayOf } from '../../lib/dates';
import { mergeFormData, pickKeys } from '../../ui/form/merge-form-data';
import { draftKey } from '../../lib/drafts/draft-keys';
import { useRecordDraft } from '../../ui/form/use-record-draft';
import { PoolTestForm } from './pool-test-form';
import { PoolRowHeading } from '../../db/pool-row-heading';
import type { RenderHistory } from '../../ui/render-history';

/** Fields the pool test form edits; the others (agency, user...) pass through the edit. */
const POOL_TEST_FORM_KEYS = [
  'method',
  'target',
  'status',
  'test_date',
  'test_agency',
  'value',
  'comments',
];

/**
 * Edit one test result: the way to fix a test the server refused, with its message beside the
 * field. Returns to the pool's collection.
 */
export function PoolTestEditScreen({
  localId,
  ownAgencyId,
  onSaved,
  renderHistory,
}: {
  localId: string;
  ownAgencyId: number | null;
  onSaved?: () => void;
  renderHistory?: RenderHistory;
}) {
  const db = useDb();
  const intl = useI18n();
  const t = intl.formatMessage;
  const [, navigate] = useLocation();
  const { lookups } = useLookups();
  const loaded = useLiveQuery(() => readPoolTestLineage(db, localId), [db, localId]);
  const { opened, place, savedAgainst } = useRecordDraft({
    store: db.meta,
    form: 'pool-test',
    record: localId,
    parent: loaded?.test?.parentLocalId ?? null,
    data: loaded?.test?.data,
    gone: loaded !== undefined && (!loaded.test || loaded.test.deleted === true),
  });
  if (loaded === undefined)
    return <p>{t({ id: 'collections.loading', defaultMessage: 'Loading…' })}</p>;
  if (!loaded.test || loaded.test.deleted || !opened)
    return (
      <p role="alert">
        {t({
          id: 'poolTests.notOnTablet',
          defaultMessage: 'This test result is not on this tablet.',
        })}
      </p>
    );
  const { test, pool, collection } = loaded;
  const save = async (data: PoolTestData) => {
    await updateRecord(
      db,
      'poolTest',
      localId,
      mergeFormData(opened, data, POOL_TEST_FORM_KEYS),
      savedAgainst(),
      draftKey(place),
    );
    onSaved?.();
    navigate(collection ? `/collections/${collection.localId}` : '/');
  };
  return (
    <section className="screen">
      <h1>{t({ id: 'poolTests.editTitle', defaultMessage: 'Edit test result' })}</h1>
      {pool ? <PoolRowHeading pool={pool} collection={collection} lookups={lookups} /> : null}
      <PoolTestForm
        key={test.localId}
        lookups={lookups}
        collectionDay={
          collection
            ? dayOf(collection.collectionDate, collection.data.collection_date_date_only === true)
            : null
        }
        ownAgencyId={ownAgencyId}
        initial={pickKeys(opened, POOL_TEST_FORM_KEYS) as Partial<PoolTestData>}
        problem={test.problem}
        onSubmit={save}
        onCancel={() => history.back()}
        draft={place}
      />
      {renderHistory?.(test.serverId, test.baseUpdated)}
    </section>
  );
}
