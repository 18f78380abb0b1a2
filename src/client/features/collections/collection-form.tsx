import { useMemo, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { ZERO_SITE_CODE, type LookupsDocument } from '#shared';
import type { CollectionData } from '../../db/create-collection';
import type { SiteCheck } from '../../lib/site-index';
import { isRepositoryError } from '../../db/repository-error';
import { localDateTime, toLocalInput } from '../../lib/dates';
import { useI18n } from '../../lib/i18n';
import { asNumber, asOptionalText } from '../../ui/form/form-errors';
import { precisionForAccuracy, roundCoord } from '../../lib/geo';
import { useGps, type GpsFix } from '../../lib/use-gps';
import { speciesSexLabeller } from '../../lib/species-sex-label';
import { Field } from '../../ui/form/field';
import { CoordinateFields } from '../../ui/coordinate-fields';
import { LocateControl } from '../../ui/locate-control';
import { CommentsField } from '../../ui/form/comments-field';
import { enterMovesOn } from '../../ui/form/enter-moves-on';
import { FormActions } from '../../ui/form/form-actions';
import { FormProblems } from '../../ui/form/form-problems';
import { IdCheckboxes } from '../../ui/form/id-checkboxes';
import { LookupSelect } from '../../ui/form/lookup-select';
import { NumberField } from '../../ui/form/number-field';
import type { Problem } from '../../ui/form/problem-banner';
import type { DraftPlace } from '../../ui/form/use-form-draft';
import { useRecordForm } from '../../ui/form/use-record-form';
import { AbundanceRows } from './abundance-rows';
import {
  COLLECTION_LABELS,
  COLLECTION_WORDS,
  collectionFormSchema,
  type CollectionFormValues,
  type CollectionHoldings,
} from './collection-schema';
import { commonSpecies } from './common-species';
import { DiscardQuestion } from './discard-question';
import { lureName } from './lookup-names';
import { SitePicker } from './site-picker';

export type CollectionSubmit = { siteLocalId: string; data: CollectionData };

/** Server paths name the site as `site`; the form holds it as `siteLocalId`. */
const siteFieldName = (path: string) => (path === 'site' ? 'siteLocalId' : path);

type Props = {
  lookups: LookupsDocument;
  sites: readonly SiteCheck[];
  /** Local collections, for the agency's common species. */
  recent: readonly { data: Record<string, unknown> }[];
  initialSiteLocalId?: string;
  /** The site is shown read-only (a collection the user may not move, see SitePicker). */
  siteLocked?: boolean;
  initial?: Partial<CollectionData>;
  /** When editing: the counts already in pools and the first test day, checked before saving. */
  holdings?: Omit<CollectionHoldings, 'describe'>;
  problem?: Problem;
  submitLabel?: string;
  onSubmit: (value: CollectionSubmit) => Promise<void>;
  /**
   * Leaves the form (a navigation of the app's own, not history: Cancel on a form opened from
   * its address must not leave the app). Asked first when something was typed.
   */
  onCancel?: () => void;
  /** Where the typing is kept as a draft until saved (the screen knows the record). */
  draft?: DraftPlace;
};

function defaults(
  initial: Partial<CollectionData> | undefined,
  siteLocalId: string,
): CollectionFormValues {
  const dateOnly = initial?.collection_date_date_only === true;
  return {
    siteLocalId,
    collection_date: initial?.collection_date
      ? toLocalInput(initial.collection_date, dateOnly)
      : localDateTime(),
    collection_date_date_only: dateOnly,
    trap: initial?.trap ?? undefined,
    num_trap: initial?.num_trap ?? 1,
    trap_nights: initial?.trap_nights ?? 1,
    trap_problem_bit: initial?.trap_problem_bit ?? false,
    lures: initial?.lures ?? [],
    identified_by: initial?.identified_by ?? undefined,
    comments: initial?.comments ?? undefined,
    arthropods: (initial?.arthropods ?? []).map((r) => ({ ...r })),
    location: initial?.location
      ? {
          shape: {
            type: 'Point',
            coordinates: [...initial.location.shape.coordinates] as [number, number],
          },
          coordinate_precision: initial.location.coordinate_precision,
        }
      : undefined,
  };
}

/** New / edit collection: site, when, trap, lures, who identified, and the abundance counts. */
export function CollectionForm({
  lookups,
  sites,
  recent,
  initialSiteLocalId = '',
  siteLocked = false,
  initial,
  holdings,
  problem = null,
  submitLabel,
  onSubmit,
  onCancel,
  draft: draftPlace,
}: Props) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const zeroIds = useMemo(
    () => new Set(sites.filter((s) => s.code === ZERO_SITE_CODE).map((s) => s.localId)),
    [sites],
  );
  const schema = useMemo(() => {
    const describe = speciesSexLabeller({ species: lookups.species, sex: lookups.sex });
    return collectionFormSchema(
      intl,
      lookups.sex,
      zeroIds,
      holdings ? { ...holdings, describe } : undefined,
    );
  }, [intl, lookups.sex, lookups.species, zeroIds, holdings]);
  const { form, err, saveError, submitWith, cancelWith, draft } =
    useRecordForm<CollectionFormValues>({
      id: 'collection-form',
      schema,
      labels: COLLECTION_LABELS,
      defaultValues: defaults(initial, initialSiteLocalId),
      problem,
      isRefusal: isRepositoryError,
      mapPath: siteFieldName,
      draft: draftPlace,
    });
  const { register, control, setValue, setFocus, formState } = form;
  const { errors, isSubmitting } = formState;
  const siteLocalId = useWatch({ control, name: 'siteLocalId' });
  const dateOnly = useWatch({ control, name: 'collection_date_date_only' });
  const atZeroSite = zeroIds.has(siteLocalId);
  const common = useMemo(() => commonSpecies(recent, lookups.species), [recent, lookups.species]);
  const gps = useGps();
  // A fix that came while the trap was placed by hand is not the trap's: no accuracy is shown for it.
  const [ignoredFix, setIgnoredFix] = useState<GpsFix | null>(null);
  // Cancel over typing (or a restored draft) asks first; with nothing typed it just leaves.
  const [askingDiscard, setAskingDiscard] = useState(false);
  const leave = cancelWith(onCancel);
  const cancel = leave && (() => (formState.isDirty ? setAskingDiscard(true) : leave()));

  const toggleDateOnly = (next: boolean) => {
    const current = form.getValues('collection_date') ?? '';
    const day = current.slice(0, 10);
    setValue('collection_date', next ? day : `${day}T${localDateTime().slice(11)}`, {
      shouldDirty: true,
    });
    setValue('collection_date_date_only', next, { shouldDirty: true });
  };
  const locateTrap = async () => {
    const before = JSON.stringify(form.getValues('location.shape.coordinates') ?? null);
    const fix = await gps.locate();
    if (!fix) return;
    // Placed by hand (typed, or another site chosen) while the GPS was locating: that place stays.
    if (JSON.stringify(form.getValues('location.shape.coordinates') ?? null) !== before) {
      setIgnoredFix(fix);
      return;
    }
    const precision = precisionForAccuracy(fix.accuracy, lookups.coordinate_precision);
    setValue(
      'location',
      {
        shape: { type: 'Point', coordinates: [roundCoord(fix.lon), roundCoord(fix.lat)] },
        coordinate_precision: precision?.id,
      },
      { shouldDirty: true },
    );
  };

  const submit = submitWith(async (values) => {
    const {
      siteLocalId: chosen,
      location,
      ...rest
    } = values as CollectionFormValues & CollectionData;
    const data = {
      ...rest,
      ...(zeroIds.has(chosen) && location ? { location } : {}),
    } as CollectionData;
    await onSubmit({ siteLocalId: chosen, data });
  });

  return (
    <form
      className="form record-form"
      onSubmit={submit}
      onKeyDown={enterMovesOn}
      noValidate
      aria-label={t({ id: 'collectionForm.name', defaultMessage: 'Collection' })}
    >
      <FormProblems problem={problem} saveError={saveError} draft={draft} />
      <Controller
        control={control}
        name="siteLocalId"
        render={({ field }) => (
          <SitePicker
            sites={sites}
            value={field.value}
            error={err('siteLocalId')}
            locked={siteLocked}
            onChange={(id) => {
              field.onChange(id);
              if (!zeroIds.has(id)) setValue('location', undefined);
            }}
          />
        )}
      />
      {atZeroSite ? (
        <fieldset className="fieldset">
          <legend>
            {t({ id: 'collectionForm.trapLocation', defaultMessage: 'Trap location' })}
          </legend>
          <LocateControl
            gps={ignoredFix && gps.fix === ignoredFix ? { ...gps, fix: null } : gps}
            onLocate={locateTrap}
          />
          <CoordinateFields
            latitude={register('location.shape.coordinates.1', { setValueAs: asNumber })}
            longitude={register('location.shape.coordinates.0', { setValueAs: asNumber })}
            precision={register('location.coordinate_precision', { setValueAs: asNumber })}
            precisions={lookups.coordinate_precision}
            errors={{
              latitude:
                err('location.shape.coordinates.1') ??
                err('location.shape.coordinates') ??
                err('location'),
              longitude: err('location.shape.coordinates.0'),
              precision: err('location.coordinate_precision'),
            }}
          />
          <input type="hidden" value="Point" {...register('location.shape.type')} />
        </fieldset>
      ) : null}

      <fieldset className="fieldset">
        <legend>{t({ id: 'collectionForm.whenAndHow', defaultMessage: 'When and how' })}</legend>
        <div className="form-grid">
          <Field label={t(COLLECTION_WORDS.date)} error={err('collection_date')}>
            <input type={dateOnly ? 'date' : 'datetime-local'} {...register('collection_date')} />
          </Field>
          <label className="check">
            <input
              type="checkbox"
              checked={dateOnly}
              onChange={(e) => toggleDateOnly(e.target.checked)}
            />
            {t({ id: 'collectionForm.dateOnly', defaultMessage: 'Date only (no time)' })}
          </label>
          <LookupSelect
            register={register}
            name="trap"
            label={t(COLLECTION_WORDS.trap)}
            error={err('trap')}
            options={lookups.trap.map((t) => ({ id: t.id, label: `${t.acronym} — ${t.name}` }))}
          />
          <NumberField
            register={register}
            name="num_trap"
            label={t(COLLECTION_WORDS.numTrap)}
            error={err('num_trap')}
          />
          <NumberField
            register={register}
            name="trap_nights"
            label={t(COLLECTION_WORDS.trapNights)}
            error={err('trap_nights')}
          />
          <label className="check">
            <input type="checkbox" {...register('trap_problem_bit')} />
            {t({ id: 'collectionForm.trapProblem', defaultMessage: 'Trap problem' })}
          </label>
        </div>
        <IdCheckboxes
          control={control}
          name="lures"
          legend={t({ id: 'collectionForm.lures', defaultMessage: 'Lures' })}
          options={lookups.lure.map((l) => ({ id: l.id, label: lureName(lookups, l.id) }))}
        />
      </fieldset>

      <AbundanceRows
        control={control}
        register={register}
        setFocus={setFocus}
        errors={errors}
        lookups={lookups}
        common={common}
      />

      <fieldset className="fieldset">
        <legend>{t({ id: 'collectionForm.notes', defaultMessage: 'Notes' })}</legend>
        <div className="form-grid">
          <Field label={t(COLLECTION_WORDS.identifiedBy)} error={err('identified_by')}>
            <input
              autoComplete="name"
              {...register('identified_by', { setValueAs: asOptionalText })}
            />
          </Field>
          <CommentsField register={register} error={err('comments')} />
        </div>
      </fieldset>

      <FormActions
        submitLabel={
          submitLabel ?? t({ id: 'collectionForm.save', defaultMessage: 'Save collection' })
        }
        saving={isSubmitting}
        onCancel={cancel}
      />
      <DiscardQuestion
        open={askingDiscard}
        onKeep={() => setAskingDiscard(false)}
        onDiscard={() => {
          setAskingDiscard(false);
          leave?.();
        }}
      />
    </form>
  );
}
