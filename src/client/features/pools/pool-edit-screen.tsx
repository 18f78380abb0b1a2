import { defineMessages } from 'react-intl';
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { useLocation } from 'wouter';
import { z } from 'zod';
import { optionalText, poolCreate, type AbundanceInput, type LookupsDocument } from '#shared';
import type { PoolRow } from '../../db/database';
import { useDb } from '../../db/db-context';
import { deletePool } from '../../db/delete-pool';
import { mayDeleteSynced } from '../../db/delete-record';
import { isRepositoryError } from '../../db/repository-error';
import { updateRecord } from '../../db/update-record';
import { useLookups } from '../../db/use-lookups';
import { readPoolForEdit } from '../../db/record-reads';
import { useI18n } from '../../lib/i18n';
import { speciesSexLabeller } from '../../lib/species-sex-label';
import { PoolRowHeading } from '../../db/pool-row-heading';
import { mergeFormData, pickKeys } from '../../ui/form/merge-form-data';
import { useRecordDraft } from '../../ui/form/use-record-draft';
import { CommentsField } from '../../ui/form/comments-field';
import { enterMovesOn } from '../../ui/form/enter-moves-on';
import { FormActions } from '../../ui/form/form-actions';
import { FormProblems } from '../../ui/form/form-problems';
import { LookupSelect } from '../../ui/form/lookup-select';
import { NumberField } from '../../ui/form/number-field';
import type { Problem } from '../../ui/form/problem-banner';
import { draftKey } from '../../lib/drafts/draft-keys';
import { type DraftPlace } from '../../ui/form/use-form-draft';
import { useRecordForm } from '../../ui/form/use-record-form';
import { checkPools } from './propose-pools';
import type { RenderHistory } from '../../ui/render-history';

type Counted = { species: number; sex: number; num_count: number };
type PoolValues = { species: number; sex: number; num_count: number; comments?: string | null };

/** Fields the pool form edits; the others (pool_num, agency...) pass through the edit. */
const POOL_FORM_KEYS = ['species', 'sex', 'num_count', 'comments'];

const WORDS = defineMessages({
  species: { id: 'collectionForm.species', defaultMessage: 'Species' },
  sex: { id: 'collectionForm.sex', defaultMessage: 'Sex' },
  count: { id: 'pools.count', defaultMessage: 'Pool count' },
  comments: { id: 'form.comments', defaultMessage: 'Comments' },
});
const LABELS = {
  species: WORDS.species,
  sex: WORDS.sex,
  num_count: WORDS.count,
  comments: WORDS.comments,
};

/** The shared pool fields plus the abundance rule (with the collection's other pools) offline. */
function poolFormSchema(
  rows: readonly Counted[],
  others: readonly Counted[],
  describe: (species: number, sex: number) => string,
) {
  return z
    .object({
      species: poolCreate.shape.species,
      sex: poolCreate.shape.sex,
      num_count: poolCreate.shape.num_count,
      comments: optionalText.nullable().optional(),
    })
    .superRefine((v, ctx) => {
      for (const p of checkPools([v], rows, others, describe)) {
        ctx.addIssue({ code: 'custom', path: ['num_count'], message: p.message });
      }
    });
}

function PoolForm({
  initial,
  rows,
  others,
  lookups,
  problem,
  onSave,
  onRemove,
  removable,
  draft: draftPlace,
}: {
  /** The pool's data as the form opened with it. */
  initial: PoolRow['data'];
  rows: Counted[];
  others: Counted[];
  lookups: LookupsDocument;
  problem: Problem;
  onSave: (values: PoolValues) => Promise<void>;
  onRemove: () => Promise<void>;
  /** False for a technician and a pool the server has: only managers delete (contract §7). */
  removable: boolean;
  draft: DraftPlace;
}) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const describe = useMemo(() => speciesSexLabeller(lookups), [lookups]);
  const schema = useMemo(() => poolFormSchema(rows, others, describe), [rows, others, describe]);
  const { form, err, saveError, setSaveError, submitWith, cancelWith, draft } = useRecordForm<
    Partial<PoolValues>,
    PoolValues
  >({
    id: 'pool-form',
    schema,
    labels: LABELS,
    defaultValues: pickKeys(initial, POOL_FORM_KEYS) as Partial<PoolValues>,
    problem,
    isRefusal: isRepositoryError,
    draft: draftPlace,
  });
  const { register, formState } = form;
  const submit = submitWith(onSave);
  const remove = async () => {
    if (
      !window.confirm(
        t({
          id: 'pools.removeQuestion',
          defaultMessage: 'Remove this pool? Its mosquitoes go back to the collection’s counts.',
        }),
      )
    )
      return;
    setSaveError(null);
    try {
      await onRemove();
      void draft.done();
    } catch (e) {
      setSaveError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <form
      className="form record-form"
      onSubmit={submit}
      onKeyDown={enterMovesOn}
      noValidate
      aria-label={t({ id: 'pools.formName', defaultMessage: 'Pool' })}
    >
      <FormProblems problem={problem} saveError={saveError} draft={draft} />
      <div className="form-grid">
        <LookupSelect
          register={register}
          name="species"
          label={t(WORDS.species)}
          error={err('species')}
          options={lookups.species.map((x) => ({ id: x.id, label: x.display_name ?? x.full_name }))}
        />
        <LookupSelect
          register={register}
          name="sex"
          label={t(WORDS.sex)}
          error={err('sex')}
          options={lookups.sex.map((x) => ({ id: x.id, label: x.name }))}
        />
        <NumberField
          register={register}
          name="num_count"
          label={t(WORDS.count)}
          error={err('num_count')}
        />
      </div>
      <CommentsField register={register} error={err('comments')} />
      <FormActions
        submitLabel={t({ id: 'pools.savePool', defaultMessage: 'Save pool' })}
        saving={formState.isSubmitting}
        onCancel={cancelWith(() => history.back())}
        extra={
          removable ? (
            <button type="button" className="button button-danger" onClick={() => void remove()}>
              {t({ id: 'pools.remove', defaultMessage: 'Remove pool' })}
            </button>
          ) : undefined
        }
      />
      {/* Below the Save bar, not in it: a sentence there would make the sticky bar tall. */}
      {removable ? null : (
        <p className="muted">
          {t({
            id: 'records.onlyManagerDeletes',
            defaultMessage: 'Only a manager can delete a record that is on the server.',
          })}
        </p>
      )}
    </form>
  );
}

/**
 * Edit (or remove) one pool: the way to fix a pool the server refused, with its message beside
 * the field. Returns to the pool's collection.
 */
export function PoolEditScreen({
  localId,
  onSaved,
  renderHistory,
}: {
  localId: string;
  onSaved?: () => void;
  renderHistory?: RenderHistory;
}) {
  const db = useDb();
  const intl = useI18n();
  const t = intl.formatMessage;
  const [, navigate] = useLocation();
  const { lookups } = useLookups();
  const loaded = useLiveQuery(() => readPoolForEdit(db, localId), [db, localId]);
  // Stable across live-query refreshes so the form's resolver is not rebuilt on every change.
  const rows = useMemo(
    () =>
      ((loaded?.collection?.data.arthropods as AbundanceInput[] | undefined) ?? []).filter(
        (r) => r.num_count > 0,
      ),
    [loaded?.collection],
  );
  const others = useMemo(() => (loaded?.others ?? []).map((p) => p.data as Counted), [loaded]);
  const { opened, place, savedAgainst } = useRecordDraft({
    store: db.meta,
    form: 'pool',
    record: localId,
    parent: loaded?.pool?.parentLocalId ?? null,
    data: loaded?.pool?.data,
    gone: loaded !== undefined && (!loaded.pool || loaded.pool.deleted === true),
  });
  if (loaded === undefined)
    return <p>{t({ id: 'collections.loading', defaultMessage: 'Loading…' })}</p>;
  if (!loaded.pool || loaded.pool.deleted || !opened)
    return (
      <p role="alert">
        {t({ id: 'pools.notOnTablet', defaultMessage: 'This pool is not on this tablet.' })}
      </p>
    );
  const { pool, collection } = loaded;
  const back = () => navigate(collection ? `/collections/${collection.localId}` : '/');
  const save = async (values: PoolValues) => {
    await updateRecord(
      db,
      'pool',
      localId,
      mergeFormData(opened, values, POOL_FORM_KEYS),
      savedAgainst(),
      draftKey(place),
    );
    onSaved?.();
    back();
  };
  const remove = async () => {
    await deletePool(db, localId);
    onSaved?.();
    back();
  };
  return (
    <section className="screen">
      <h1>{t({ id: 'collectionDetail.editPool', defaultMessage: 'Edit pool' })}</h1>
      {/* The pool as saved (the form below edits it): its number is what the vial carries. */}
      <PoolRowHeading pool={pool} collection={collection} lookups={lookups} />
      <PoolForm
        key={pool.localId}
        initial={opened}
        rows={rows}
        others={others}
        lookups={lookups}
        problem={pool.problem}
        onSave={save}
        onRemove={remove}
        removable={pool.serverId === null || mayDeleteSynced()}
        draft={place}
      />
      {renderHistory?.(pool.serverId, pool.baseUpdated)}
    </section>
  );
}
