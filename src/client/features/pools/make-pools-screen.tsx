import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { useFieldArray } from 'react-hook-form';
import { useLocation } from 'wouter';
import { z } from 'zod';
import { poolCreate, type AbundanceInput, type LookupsDocument } from '../../../shared';
import { createPools } from '../../db/create-pools';
import { useDb } from '../../db/db-context';
import { isRepositoryError } from '../../db/repository-error';
import { useLookups } from '../../db/use-lookups';
import { asNumber } from '../../ui/form/form-errors';
import { speciesSexLabeller } from '../../lib/species-sex-label';
import { FormActions } from '../../ui/form/form-actions';
import { FormProblems } from '../../ui/form/form-problems';
import { useDropDraftsWhenGone, type DraftPlace } from '../../ui/form/use-form-draft';
import { useRecordForm } from '../../ui/form/use-record-form';
import { checkPools, MAX_POOL_SIZE, proposePools, type ProposedPool } from './propose-pools';

type Counted = { species: number; sex: number; num_count: number };

const POOLS_LABELS: Record<string, string> = { 'pools.*.num_count': 'Pool count' };
type PoolsForm = { pools: Partial<ProposedPool>[] };

/** The shared pool schema for each row, plus the abundance rule checked offline. */
function poolsSchema(
  rows: readonly Counted[],
  existing: readonly Counted[],
  describe: (species: number, sex: number) => string,
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
        .min(1, { message: 'Keep at least one pool, or go back' }),
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
  const describe = useMemo(() => speciesSexLabeller(lookups), [lookups]);
  const schema = useMemo(() => poolsSchema(rows, existing, describe), [rows, existing, describe]);
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
  const { control, register, formState } = form;
  const { fields, remove } = useFieldArray({ control, name: 'pools' });
  const submit = submitWith(({ pools }) => onSave(pools));
  if (fields.length === 0 && !formState.isDirty) {
    return <p className="muted">Everything counted is already in pools.</p>;
  }
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Pools">
      <FormProblems problem={null} saveError={saveError} draft={draft} />
      <p className="muted">
        Pools of at most {MAX_POOL_SIZE}, proposed from the counts. Change any count before saving.
      </p>
      <ol className="pools">
        {fields.map((field, i) => {
          const n = i + 1;
          const message = err(`pools.${i}.num_count`);
          return (
            <li key={field.id} className="pool-row">
              <span className="pool-name">
                Pool {n}: {describe(field.species!, field.sex!)}
              </span>
              <div className={message ? 'field field-invalid' : 'field'}>
                <label htmlFor={`${field.id}-count`}>Pool {n} count</label>
                <input
                  id={`${field.id}-count`}
                  inputMode="numeric"
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
              <button type="button" className="button button-quiet" onClick={() => remove(i)}>
                Remove pool {n}
              </button>
            </li>
          );
        })}
      </ol>
      {err('pools') ? (
        <p className="field-error" role="alert">
          {err('pools')}
        </p>
      ) : null}
      <FormActions
        submitLabel="Save pools"
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
  const [, navigate] = useLocation();
  const { lookups } = useLookups();
  const loaded = useLiveQuery(async () => {
    const collection = await db.collections.get(collectionLocalId);
    const pools = (
      await db.pools.where('parentLocalId').equals(collectionLocalId).toArray()
    ).filter((p) => !p.deleted);
    return { collection: collection ?? null, pools };
  }, [db, collectionLocalId]);
  const collectionGone =
    loaded !== undefined && (!loaded.collection || loaded.collection.deleted === true);
  useDropDraftsWhenGone(collectionGone, db.meta, 'pools', null, collectionLocalId);
  if (loaded === undefined) return <p>Loading…</p>;
  if (!loaded.collection) return <p role="alert">This collection is not on this tablet.</p>;
  const rows = ((loaded.collection.data.arthropods as AbundanceInput[] | undefined) ?? []).filter(
    (r) => r.num_count > 0,
  );
  const existing = loaded.pools.map((p) => p.data as Counted);
  const save = async (pools: ProposedPool[]) => {
    await createPools(db, collectionLocalId, pools);
    onSaved?.();
    navigate(`/collections/${collectionLocalId}`);
  };
  return (
    <section className="screen">
      <h1>Make pools</h1>
      {rows.length === 0 ? (
        <p className="muted">This collection has no counts to pool.</p>
      ) : (
        <PoolsEditor
          rows={rows}
          existing={existing}
          lookups={lookups}
          onSave={save}
          draft={{ store: db.meta, form: 'pools', record: null, parent: collectionLocalId }}
        />
      )}
    </section>
  );
}
