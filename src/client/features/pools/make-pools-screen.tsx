import { useLiveQuery } from 'dexie-react-hooks';
import { Fragment, useMemo, useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { useLocation } from 'wouter';
import { z } from 'zod';
import { poolCreate, type AbundanceInput, type LookupsDocument } from '#shared';
import { createPools } from '../../db/create-pools';
import { useDb } from '../../db/db-context';
import { collectionNumberOf } from '../../db/record-numbers';
import { isRepositoryError } from '../../db/repository-error';
import { useLookups } from '../../db/use-lookups';
import { readCollectionForPools } from '../../db/record-reads';
import { asNumber } from '../../ui/form/form-errors';
import { enterMovesOn } from '../../ui/form/enter-moves-on';
import { dateIn, useI18n } from '../../lib/i18n';
import { speciesSexLabeller } from '../../lib/species-sex-label';
import { CollectionTitle } from '../../ui/record-number';
import { FormActions } from '../../ui/form/form-actions';
import { FormProblems } from '../../ui/form/form-problems';
import { draftKey } from '../../lib/drafts/draft-keys';
import { useDropDraftsWhenGone, type DraftPlace } from '../../ui/form/use-form-draft';
import { useRecordForm } from '../../ui/form/use-record-form';
import { checkPools, MAX_POOL_SIZE, proposePools, type ProposedPool } from './propose-pools';

type Counted = { species: number; sex: number; num_count: number };

const POOLS_LABELS = {
  'pools.*.num_count': { id: 'pools.count', defaultMessage: 'Pool count' },
};
type PoolsForm = { pools: Partial<ProposedPool>[] };

/** The shared pool schema for each row, plus the abundance rule checked offline. */
function poolsSchema(
  rows: readonly Counted[],
  existing: readonly Counted[],
  describe: (species: number, sex: number) => string,
  keepOne: string,
) {
  return z
    .object({
      pools: z
        .array(
          z.object({
            species: poolCreate.shape.species,
            sex: poolCreate.shape.sex,
            num_count: poolCreate.shape.num_count,
          }),
        )
        .min(1, { message: keepOne }),
    })
    .superRefine((v, ctx) => {
      for (const p of checkPools(v.pools, rows, existing, describe)) {
        ctx.addIssue({ code: 'custom', path: ['pools', p.index, 'num_count'], message: p.message });
      }
    });
}

function PoolsEditor({
  rows,
  existing,
  lookups,
  onSave,
  draft: draftPlace,
}: {
  rows: Counted[];
  existing: Counted[];
  lookups: LookupsDocument;
  onSave: (pools: ProposedPool[]) => Promise<void>;
  draft: DraftPlace;
}) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const describe = useMemo(() => speciesSexLabeller(lookups), [lookups]);
  const keepOne = t({ id: 'pools.keepOne', defaultMessage: 'Keep at least one pool, or go back' });
  const schema = useMemo(
    () => poolsSchema(rows, existing, describe, keepOne),
    [rows, existing, describe, keepOne],
  );
  const { form, err, saveError, submitWith, cancelWith, draft } = useRecordForm<
    PoolsForm,
    { pools: ProposedPool[] }
  >({
    id: 'pools-form',
    schema,
    labels: POOLS_LABELS,
    defaultValues: { pools: proposePools(rows, existing) },
    problem: null,
    isRefusal: isRepositoryError,
    draft: draftPlace,
  });
  const { control, register, formState, getValues } = form;
  const { fields, remove, insert } = useFieldArray({ control, name: 'pools' });
  // The last removed pool, so a stray tap on "Remove pool N" costs nothing: Undo puts it back.
  const [removed, setRemoved] = useState<{
    index: number;
    pool: Partial<ProposedPool>;
    label: string;
  } | null>(null);
  const removePool = (i: number) => {
    const pool = { ...getValues(`pools.${i}`) };
    const what = describe(pool.species!, pool.sex!);
    setRemoved({
      index: i,
      pool,
      label:
        typeof pool.num_count === 'number'
          ? t(
              {
                id: 'pools.removedCount',
                defaultMessage: 'Pool {n} removed ({what} × {count})',
              },
              { n: i + 1, what, count: pool.num_count },
            )
          : t(
              { id: 'pools.removed', defaultMessage: 'Pool {n} removed ({what})' },
              { n: i + 1, what },
            ),
    });
    remove(i);
  };
  const undo = () => {
    if (!removed) return;
    const at = Math.min(removed.index, getValues('pools').length);
    insert(at, removed.pool, { focusName: `pools.${at}.num_count` });
    setRemoved(null);
  };
  // Where the removed pool was, under the thumb that tapped Remove (not off the screen below).
  const undoNote = removed ? (
    <li className="undo-row">
      <div className="row wrap undo" role="status">
        <span>{removed.label}</span>
        <button type="button" className="button" onClick={undo}>
          {t({ id: 'abundance.undo', defaultMessage: 'Undo' })}
        </button>
      </div>
    </li>
  ) : null;
  const submit = submitWith(({ pools }) => onSave(pools));
  if (fields.length === 0 && !formState.isDirty) {
    return (
      <p className="muted">
        {t({ id: 'pools.allPooled', defaultMessage: 'Everything counted is already in pools.' })}
      </p>
    );
  }
  return (
    <form
      className="form record-form"
      onSubmit={submit}
      onKeyDown={enterMovesOn}
      noValidate
      aria-label={t({ id: 'collectionDetail.pools', defaultMessage: 'Pools' })}
    >
      <FormProblems problem={null} saveError={saveError} draft={draft} />
      <p className="muted">
        {t(
          {
            id: 'pools.intro',
            defaultMessage:
              'Pools of at most {max}, proposed from the counts. Change any count before saving. Each pool gets its number from the office when it syncs.',
          },
          { max: MAX_POOL_SIZE },
        )}
      </p>
      <ol className="pools">
        {fields.map((field, i) => {
          const n = i + 1;
          const message = err(`pools.${i}.num_count`);
          return (
            <Fragment key={field.id}>
              {removed?.index === i ? undoNote : null}
              <li className="pool-row">
                <span className="pool-name">
                  {t(
                    { id: 'pools.rowName', defaultMessage: 'Pool {n}: {what}' },
                    { n, what: describe(field.species!, field.sex!) },
                  )}
                </span>
                <div className={message ? 'field field-invalid' : 'field'}>
                  <label htmlFor={`${field.id}-count`}>
                    {t({ id: 'pools.rowCount', defaultMessage: 'Pool {n} count' }, { n })}
                  </label>
                  <input
                    id={`${field.id}-count`}
                    inputMode="numeric"
                    enterKeyHint="next"
                    aria-invalid={message ? true : undefined}
                    aria-describedby={message ? `${field.id}-count-error` : undefined}
                    {...register(`pools.${i}.num_count`, { setValueAs: asNumber })}
                  />
                  {message ? (
                    <p className="field-error" id={`${field.id}-count-error`} role="alert">
                      {message}
                    </p>
                  ) : null}
                </div>
                <button type="button" className="button button-quiet" onClick={() => removePool(i)}>
                  {t({ id: 'pools.removeRow', defaultMessage: 'Remove pool {n}' }, { n })}
                </button>
              </li>
            </Fragment>
          );
        })}
        {removed && removed.index >= fields.length ? undoNote : null}
      </ol>
      {err('pools') ? (
        <p className="field-error" role="alert">
          {err('pools')}
        </p>
      ) : null}
      <FormActions
        submitLabel={t({ id: 'pools.save', defaultMessage: 'Save pools' })}
        saving={formState.isSubmitting}
        onCancel={cancelWith(() => history.back())}
      />
    </form>
  );
}

/** "Make pools": proposes pools from a collection's abundance and saves them in one transaction. */
export function MakePoolsScreen({
  collectionLocalId,
  onSaved,
}: {
  collectionLocalId: string;
  onSaved?: () => void;
}) {
  const db = useDb();
  const intl = useI18n();
  const t = intl.formatMessage;
  const [, navigate] = useLocation();
  const { lookups } = useLookups();
  const loaded = useLiveQuery(
    () => readCollectionForPools(db, collectionLocalId),
    [db, collectionLocalId],
  );
  const collectionGone =
    loaded !== undefined && (!loaded.collection || loaded.collection.deleted === true);
  useDropDraftsWhenGone(collectionGone, db.meta, 'pools', null, collectionLocalId);
  if (loaded === undefined)
    return <p>{t({ id: 'collections.loading', defaultMessage: 'Loading…' })}</p>;
  if (!loaded.collection)
    return (
      <p role="alert">
        {t({
          id: 'collections.notOnTablet',
          defaultMessage: 'This collection is not on this tablet.',
        })}
      </p>
    );
  const rows = ((loaded.collection.data.arthropods as AbundanceInput[] | undefined) ?? []).filter(
    (r) => r.num_count > 0,
  );
  const existing = loaded.pools.map((p) => p.data as Counted);
  const place: DraftPlace = {
    store: db.meta,
    form: 'pools',
    record: null,
    parent: collectionLocalId,
  };
  const save = async (pools: ProposedPool[]) => {
    await createPools(db, collectionLocalId, pools, draftKey(place));
    onSaved?.();
    navigate(`/collections/${collectionLocalId}`);
  };
  return (
    <section className="screen">
      <h1>{t({ id: 'collectionDetail.makePools', defaultMessage: 'Make pools' })}</h1>
      <p className="record-title">
        <CollectionTitle
          number={collectionNumberOf(loaded.collection)}
          date={dateIn(
            intl,
            loaded.collection.collectionDate,
            loaded.collection.data.collection_date_date_only === true,
          )}
        />
      </p>
      {rows.length === 0 ? (
        <p className="muted">
          {t({ id: 'pools.noCounts', defaultMessage: 'This collection has no counts to pool.' })}
        </p>
      ) : (
        <PoolsEditor
          rows={rows}
          existing={existing}
          lookups={lookups}
          onSave={save}
          draft={place}
        />
      )}
    </section>
  );
}
