import { useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { SITE_POPULATIONS, ZERO_SITE_CODE, type LookupsDocument, type SiteCreate } from '#shared';
import { placeOf, type SiteCheck } from '../../lib/site-index';
import { isRepositoryError } from '../../db/repository-error';
import { asNumber, asOptionalText } from '../../ui/form/form-errors';
import {
  coordinateHint,
  nearestTo,
  placeQuestion,
  precisionForAccuracy,
  precisionForMapPlace,
  roundCoord,
  wrapLongitude,
  type LatLon,
} from '../../lib/geo';
import { Dialog } from '../../ui/dialog';
import { Field } from '../../ui/form/field';
import { CoordinateFields } from '../../ui/coordinate-fields';
import { LocateControl } from '../../ui/locate-control';
import { CommentsField } from '../../ui/form/comments-field';
import { FormActions } from '../../ui/form/form-actions';
import { FormProblems } from '../../ui/form/form-problems';
import { NumberField } from '../../ui/form/number-field';
import type { Problem } from '../../ui/form/problem-banner';
import type { DraftPlace } from '../../ui/form/use-form-draft';
import { useRecordForm } from '../../ui/form/use-record-form';
import { distanceIn, translateRule, useI18n } from '../../lib/i18n';
import { siteFormSchema, SITE_LABELS, SITE_WORDS } from './site-schema';
import { useGps } from '../../lib/use-gps';

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

/** Another site this close (m) to the place is named under the map: perhaps the same one. */
const CLOSE_BY_M = 100;

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

  // The agency's site nearest the place, when close enough to be the same one placed twice.
  // Measured when the place changes, not at every keystroke (20,000 sites on a slow tablet).
  const [placeLat, placeLon] = position ?? [Number.NaN, Number.NaN];
  const closeBy = useMemo(() => {
    if (!Number.isFinite(placeLat) || !Number.isFinite(placeLon)) return null;
    const others = sites.flatMap((s) => {
      if (s.deleted || s.localId === selfLocalId || s.code === ZERO_SITE_CODE) return [];
      const at = placeOf(s);
      return at ? [{ ...at, site: s }] : [];
    });
    const [nearest] = nearestTo(others, { lat: placeLat, lon: placeLon }, 1);
    return nearest && nearest.meters <= CLOSE_BY_M ? nearest : null;
  }, [sites, selfLocalId, placeLat, placeLon]);

  // A place far from all the agency's other sites (a longitude typed without its minus) or at
  // 0, 0 is asked about once before saving; the question goes when the place is changed. The
  // other sites' places are gathered on Save, not with every change of the sites (a sync
  // bringing sites re-renders the form, 20,000 of them each time).
  const othersPlaces = () =>
    sites
      .filter((s) => !s.deleted && s.localId !== selfLocalId && s.code !== ZERO_SITE_CODE)
      .map(placeOf)
      .filter((p): p is LatLon => p !== null);
  const formRef = useRef<HTMLFormElement>(null);
  const confirmedPlace = useRef<string | null>(null);
  const [askedPlace, setAskedPlace] = useState<{ key: string; question: string } | null>(null);
  const startPlace = JSON.stringify(initial?.shape?.coordinates ?? null);
  const placeKey = JSON.stringify(position ? [position[1], position[0]] : null);
  const question = askedPlace && askedPlace.key === placeKey ? askedPlace.question : null;
  const submitAsking = (e: FormEvent<HTMLFormElement>) => {
    // An edit that leaves the place as it was is not asked about again.
    // Coordinates out of range are the schema's to refuse, not a place to ask about.
    if (
      position &&
      Math.abs(position[0]) <= 90 &&
      Math.abs(position[1]) <= 180 &&
      placeKey !== startPlace &&
      confirmedPlace.current !== placeKey
    ) {
      const asking = placeQuestion({ lat: position[0], lon: position[1] }, othersPlaces());
      if (asking) {
        e.preventDefault();
        setAskedPlace({ key: placeKey, question: translateRule(intl, asking) });
        return;
      }
    }
    return submit(e);
  };

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

      <fieldset className="fieldset">
        <legend>{t(SITE_WORDS.address)}</legend>
        <div className="form-grid">
          <Field label={t(SITE_WORDS.address)} error={err('address_1')}>
            <input autoComplete="off" {...register('address_1', { setValueAs: asOptionalText })} />
          </Field>
          <Field label={t(SITE_WORDS.address2)} error={err('address_2')}>
            <input autoComplete="off" {...register('address_2', { setValueAs: asOptionalText })} />
          </Field>
          <Field label={t(SITE_WORDS.city)} error={err('city')}>
            <input autoComplete="off" {...register('city', { setValueAs: asOptionalText })} />
          </Field>
          <Field label={t(SITE_WORDS.postalCode)} error={err('postal_code')}>
            <input
              inputMode="numeric"
              autoComplete="off"
              maxLength={5}
              {...register('postal_code', { setValueAs: asOptionalText })}
            />
          </Field>
        </div>
      </fieldset>

      <fieldset className="fieldset">
        <legend>{t({ id: 'siteForm.surroundings', defaultMessage: 'Surroundings' })}</legend>
        <div className="form-grid">
          <Field label={t(SITE_WORDS.population)} error={err('site_population')}>
            <select {...register('site_population', { setValueAs: asOptionalText })}>
              <option value="">{t({ id: 'siteForm.notSet', defaultMessage: 'Not set' })}</option>
              {SITE_POPULATIONS.map((p) => (
                <option key={p} value={p}>
                  {t(
                    {
                      id: 'siteForm.populationValue',
                      defaultMessage:
                        '{p, select, Urban {Urban} Suburban {Suburban} Rural {Rural} other {{p}}}',
                    },
                    { p },
                  )}
                </option>
              ))}
            </select>
          </Field>
          <NumberField
            register={register}
            name="elevation"
            label={t({ id: 'siteForm.elevationM', defaultMessage: 'Elevation (m)' })}
            error={err('elevation')}
            decimal
          />
        </div>
        {lookups.land_usage.length > 0 ? (
          <Controller
            control={control}
            name="site_land_usage"
            render={({ field }) => {
              const selected = new Set(field.value ?? []);
              return (
                <fieldset className="checks">
                  <legend>{t({ id: 'siteForm.landUsage', defaultMessage: 'Land usage' })}</legend>
                  {lookups.land_usage.map((u) => (
                    <label key={u.id} className="check">
                      <input
                        type="checkbox"
                        checked={selected.has(u.id)}
                        onChange={(e) => {
                          const next = new Set(selected);
                          if (e.target.checked) next.add(u.id);
                          else next.delete(u.id);
                          field.onChange([...next]);
                        }}
                      />
                      {u.name}
                    </label>
                  ))}
                </fieldset>
              );
            }}
          />
        ) : null}
        <CommentsField register={register} error={err('comments')} />
      </fieldset>

      <Dialog
        open={question !== null}
        title={t({ id: 'siteForm.checkPlace', defaultMessage: 'Check the place' })}
        onClose={() => setAskedPlace(null)}
      >
        <p>{question}</p>
        <div className="row wrap">
          <button
            type="button"
            className="button button-primary"
            autoFocus
            onClick={() => {
              setAskedPlace(null);
              // After the sheet has closed (it gives focus back to Save site).
              setTimeout(() =>
                formRef.current
                  ?.querySelector<HTMLElement>('input[name="shape.coordinates.1"]')
                  ?.focus(),
              );
            }}
          >
            {t({ id: 'siteForm.changePlace', defaultMessage: 'Change the place' })}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              confirmedPlace.current = placeKey;
              setAskedPlace(null);
              formRef.current?.requestSubmit();
            }}
          >
            {t({ id: 'siteForm.saveThere', defaultMessage: 'Save it there' })}
          </button>
        </div>
      </Dialog>

      <FormActions
        submitLabel={submitLabel ?? t({ id: 'siteForm.save', defaultMessage: 'Save site' })}
        saving={isSubmitting}
        onCancel={cancelWith(onCancel)}
      />
    </form>
  );
}
