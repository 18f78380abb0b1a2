import { useLiveQuery } from 'dexie-react-hooks';
import { useLocation } from 'wouter';
import { createPoolTest, type PoolTestData } from '../../db/create-pool-test';
import { useDb } from '../../db/db-context';
import { useLookups } from '../../db/use-lookups';
import { readPoolLineage } from '../../db/record-reads';
import { LookupsNotice } from '../../ui/lookups-notice';
import { draftKey } from '../../lib/drafts/draft-keys';
import { useDropDraftsWhenGone, type DraftPlace } from '../../ui/form/use-form-draft';
import { dayOf } from '../../lib/dates';
import { useI18n } from '../../lib/i18n';
import { PoolTestForm } from './pool-test-form';
import { PoolRowHeading } from '../../db/pool-row-heading';

/** New test result of a pool; returns to the pool's collection after saving. */
export function PoolTestScreen({
  poolLocalId,
  ownAgencyId,
  onSaved,
}: {
  poolLocalId: string;
  ownAgencyId: number | null;
  onSaved?: () => void;
}) {
  const db = useDb();
  const intl = useI18n();
  const t = intl.formatMessage;
  const [, navigate] = useLocation();
  const { lookups, loaded: listsRead, storedAt } = useLookups();
  const loaded = useLiveQuery(() => readPoolLineage(db, poolLocalId), [db, poolLocalId]);
  const poolGone = loaded !== undefined && (!loaded.pool || loaded.pool.deleted === true);
  useDropDraftsWhenGone(poolGone, db.meta, 'pool-test', null, poolLocalId);
  if (loaded === undefined)
    return <p>{t({ id: 'collections.loading', defaultMessage: 'Loading…' })}</p>;
  if (!loaded.pool)
    return (
      <p role="alert">
        {t({ id: 'pools.notOnTablet', defaultMessage: 'This pool is not on this tablet.' })}
      </p>
    );
  const { pool, collection } = loaded;
  const place: DraftPlace = {
    store: db.meta,
    form: 'pool-test',
    record: null,
    parent: poolLocalId,
  };
  const save = async (data: PoolTestData) => {
    await createPoolTest(db, poolLocalId, data, draftKey(place));
    onSaved?.();
    navigate(collection ? `/collections/${collection.localId}` : '/');
  };
  return (
    <section className="screen">
      <h1>{t({ id: 'poolTests.newTitle', defaultMessage: 'Test result' })}</h1>
      <LookupsNotice loaded={listsRead} storedAt={storedAt} />
      <PoolRowHeading pool={pool} collection={collection} lookups={lookups} />
      <PoolTestForm
        lookups={lookups}
        collectionDay={
          collection
            ? dayOf(collection.collectionDate, collection.data.collection_date_date_only === true)
            : null
        }
        ownAgencyId={ownAgencyId}
        onSubmit={save}
        onCancel={() => history.back()}
        draft={place}
      />
    </section>
  );
}
