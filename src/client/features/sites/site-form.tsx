import { useMemo, useRef, type ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import type { LookupsDocument, SiteCreate } from '#shared';
import type { SiteCheck } from '../../lib/site-index';
import { isRepositoryError } from '../../db/repository-error';
import { asNumber } from '../../ui/form/form-errors';
import {
  coordinateHint,
  precisionForAccuracy,
  precisionForMapPlace,
  roundCoord,
  wrapLongitude,
} from '../../lib/geo';
import { Field } from '../../ui/form/field';
import { CoordinateFields } from '../../ui/coordinate-fields';
import { LocateControl } from '../../ui/locate-control';
import { FormActions } from '../../ui/form/form-actions';
import { FormProblems } from '../../ui/form/form-problems';
import type { Problem } from '../../ui/form/problem-banner';
import type { DraftPlace } from '../../ui/form/use-form-draft';
import { useRecordForm } from '../../ui/form/use-record-form';
import { distanceIn, translateRule, useI18n } from '../../lib/i18n';
import { useGps } from '../../lib/use-gps';
import { PlaceQuestionDialog, usePlaceQuestion } from './place-question';
import { SiteAddressFields, SiteSurroundingsFields } from './site-area-fields';
import { siteFormSchema, SITE_LABELS, SITE_WORDS } from './site-schema';
import { useCloseBySite } from './use-close-by-site';

/** What the site form lends the map picker: the pin and a way to move it. */
export type LocationPickerProps = {
  position: [number, number] | null;
  /** The place tapped or dragged to, and how far (m) a place set by eye at that zoom may be off. */
  onPick: (lat: number, lon: number, withinMeters?: number) => void;
};

type SiteFormProps = {
  lookups: LookupsDocument;
  /** The tablet's other sites, as a new code and place are checked against them. */
  sites: readonly SiteCheck[];
  initial?: Partial<SiteCreate>;
  /** A new site's code as proposed from the tablet's sites (see nextSiteCode): prefilled, editable. */
  proposedCode?: string | null;
  selfLocalId?: string | null;
  problem?: Problem;
  submitLabel?: string;
  onSubmit: (data: SiteCreate) => Promise<void>;
  onCancel?: () => void;
  /** The map to place the site by tapping or dragging (lazy-loaded by the app). */
  renderPicker?: (props: LocationPickerProps) => ReactNode;
  /** Where the typing is kept as a draft until saved (the screen knows the record). */
  draft?: DraftPlace;
};

const EMPTY: Partial<SiteCreate> = {
  shape: { type: 'Point', coordinates: [undefined as never, undefined as never] },
};

/** New / edit site: code, name, location (map, GPS or typed), address and surroundings. */
export function SiteForm({
  lookups,
  sites,
  initial,
  proposedCode = null,
  selfLocalId = null,
  problem = null,
  submitLabel,
  onSubmit,
  onCancel,
  renderPicker,
  draft: draftPlace,
}: SiteFormProps) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const schema = useMemo(
    () => siteFormSchema(intl, sites, selfLocalId),
    [intl, sites, selfLocalId],
  );
  const { form, err, saveError, submitWith, cancelWith, draft } = useRecordForm<
    Partial<SiteCreate>,
    SiteCreate
  >({
    id: 'site-form',
    schema,
    labels: SITE_LABELS,
    defaultValues: {
      ...EMPTY,
      ...(proposedCode ? { code: proposedCode } : {}),
      ...initial,
      shape: {
        type: 'Point',
        coordinates: initial?.shape?.coordinates ?? EMPTY.shape!.coordinates,
      },
    },
    problem,
    isRefusal: isRepositoryError,
    draft: draftPlace,
  });
  const { register, setValue, getValues, control, formState } = form;
  const { isSubmitting } = formState;
  const gps = useGps();
  const [lon, lat] = useWatch({ control, name: 'shape.coordinates' }) ?? [];
  const hint = translateRule(intl, coordinateHint(asNumber(lat), asNumber(lon)));
  const position: [number, number] | null =
    typeof lat === 'number' && typeof lon === 'number' && !Number.isNaN(lat) && !Number.isNaN(lon)
      ? [lat, lon]
      : null;

  // A fix's accuracy describes the fix's place only: once the place was set by hand (before the
  // fix came, or after), no accuracy is shown. Derived from the place itself, so it holds in
  // every render, also the one between the fix arriving and the form deciding to ignore it.
  const fixIsThePlace =
    gps.fix !== null &&
    position !== null &&
    position[0] === roundCoord(gps.fix.lat) &&
    position[1] === roundCoord(wrapLongitude(gps.fix.lon));

  const place = (la: number, lo: number) => {
    setValue('shape.coordinates.1', roundCoord(la), {
      shouldDirty: true,
      shouldValidate: formState.isSubmitted,
    });
    // A tap on another copy of the world (zoomed out) is the same place, as -180..180.
    setValue('shape.coordinates.0', roundCoord(wrapLongitude(lo)), {
      shouldDirty: true,
      shouldValidate: formState.isSubmitted,
    });
  };
  // The precision this form set itself (from a map tap or a GPS fix): the next placement may
  // replace it, as it may the site's saved one; a precision chosen by hand in the list stays.
  const autoPrecision = useRef<number | null>(null);
  const describePlace = (precision: { id: number } | null) => {
    if (!precision) return;
    const current = asNumber(getValues('coordinate_precision'));
    const byHand =
      typeof current === 'number' &&
      !Number.isNaN(current) &&
      current !== autoPrecision.current &&
      current !== initial?.coordinate_precision;
    if (byHand) return;
    autoPrecision.current = precision.id;
    setValue('coordinate_precision', precision.id, {
      shouldDirty: true,
      shouldValidate: formState.isSubmitted,
    });
  };
  // A tap or a dragged pin: as precise as a place set by eye at the map's zoom.
  const pick = (la: number, lo: number, withinMeters?: number) => {
    place(la, lo);
    if (withinMeters !== undefined)
      describePlace(precisionForMapPlace(withinMeters, lookups.coordinate_precision));
  };
  const useMyLocation = async () => {
    const before = JSON.stringify(getValues('shape.coordinates') ?? null);
    const fix = await gps.locate();
    if (!fix) return;
    // Placed by hand (map, pin or typed) while the GPS was locating: that place stays.
    if (JSON.stringify(getValues('shape.coordinates') ?? null) !== before) return;
    place(fix.lat, fix.lon);
    // The fix's own accuracy describes it, whatever was chosen before.
    const precision = precisionForAccuracy(fix.accuracy, lookups.coordinate_precision);
    if (precision) {
      autoPrecision.current = precision.id;
      setValue('coordinate_precision', precision.id, { shouldDirty: true });
    }
  };

  const submit = submitWith(onSubmit);

  const closeBy = useCloseBySite(sites, selfLocalId, position);

  const { formRef, submitAsking, question, changePlace, saveThere, dismiss } = usePlaceQuestion({
    position,
    initialCoordinates: initial?.shape?.coordinates,
    sites,
    selfLocalId,
    submit,
  });

  return (
    <form
      className="form"
      onSubmit={submitAsking}
      noValidate
      aria-label={t({ id: 'siteForm.formName', defaultMessage: 'Site' })}
      ref={formRef}
    >
      <FormProblems problem={problem} saveError={saveError} draft={draft} />
      <div className="form-grid">
        <Field
          label={t(SITE_WORDS.code)}
          error={err('code')}
          hint={
            <span className="hint-neutral">
              {proposedCode
                ? t({
                    id: 'siteForm.codeProposed',
                    defaultMessage:
                      'Proposed from the sites on this tablet: change it if needed. 6 digits, unique in your agency',
                  })
                : t({ id: 'siteForm.codeHint', defaultMessage: '6 digits, unique in your agency' })}
            </span>
          }
        >
          <input inputMode="numeric" autoComplete="off" maxLength={6} {...register('code')} />
        </Field>
        <Field label={t(SITE_WORDS.name)} error={err('name')}>
          <input autoComplete="off" {...register('name')} />
        </Field>
      </div>

      <fieldset className="fieldset">
        <legend>{t({ id: 'siteForm.location', defaultMessage: 'Location' })}</legend>
        <LocateControl gps={fixIsThePlace ? gps : { ...gps, fix: null }} onLocate={useMyLocation} />
        {renderPicker ? (
          <div className="picker">{renderPicker({ position, onPick: pick })}</div>
        ) : null}
        {closeBy ? (
          <p className="field-hint" role="status" data-testid="site-close-by">
            {t(
              {
                id: 'siteForm.closeBy',
                defaultMessage:
                  'Site {code} {name} is {distance} from here: check this is not the same site.',
              },
              {
                code: closeBy.item.site.code,
                name: closeBy.item.site.name,
                distance: distanceIn(intl, closeBy.meters),
              },
            )}
          </p>
        ) : null}
        <CoordinateFields
          latitude={register('shape.coordinates.1', { setValueAs: asNumber })}
          longitude={register('shape.coordinates.0', { setValueAs: asNumber })}
          precision={register('coordinate_precision', { setValueAs: asNumber })}
          precisions={lookups.coordinate_precision}
          latitudeHint={hint}
          errors={{
            latitude: err('shape.coordinates.1') ?? err('shape.coordinates'),
            longitude: err('shape.coordinates.0'),
            precision: err('coordinate_precision'),
          }}
        />
      </fieldset>

      <SiteAddressFields register={register} err={err} />
      <SiteSurroundingsFields register={register} err={err} control={control} lookups={lookups} />

      <PlaceQuestionDialog
        question={question}
        onClose={dismiss}
        onChangePlace={changePlace}
        onSaveThere={saveThere}
      />

      <FormActions
        submitLabel={submitLabel ?? t({ id: 'siteForm.save', defaultMessage: 'Save site' })}
        saving={isSubmitting}
        onCancel={cancelWith(onCancel)}
      />
    </form>
  );
}
