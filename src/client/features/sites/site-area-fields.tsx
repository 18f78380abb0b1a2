import type { Control, UseFormRegister } from 'react-hook-form';
import { SITE_POPULATIONS, type LookupsDocument, type SiteCreate } from '#shared';
import { useI18n } from '../../lib/i18n';
import { CommentsField } from '../../ui/form/comments-field';
import { Field } from '../../ui/form/field';
import { IdCheckboxes } from '../../ui/form/id-checkboxes';
import { asOptionalText } from '../../ui/form/form-errors';
import { NumberField } from '../../ui/form/number-field';
import { SITE_WORDS } from './site-schema';

type SiteFieldsProps = {
  register: UseFormRegister<Partial<SiteCreate>>;
  /** The field's message in the person's language, or null when it is fine. */
  err: (path: string) => string | null;
};

/** The site's address: two lines, city and postal code. */
export function SiteAddressFields({ register, err }: SiteFieldsProps) {
  const t = useI18n().formatMessage;
  return (
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
  );
}

/** Around the site: population, elevation, land usage, and comments. */
export function SiteSurroundingsFields({
  register,
  err,
  control,
  lookups,
}: SiteFieldsProps & { control: Control<Partial<SiteCreate>>; lookups: LookupsDocument }) {
  const t = useI18n().formatMessage;
  return (
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
      <IdCheckboxes
        control={control}
        name="site_land_usage"
        legend={t({ id: 'siteForm.landUsage', defaultMessage: 'Land usage' })}
        options={lookups.land_usage.map((u) => ({ id: u.id, label: u.name }))}
      />
      <CommentsField register={register} error={err('comments')} />
    </fieldset>
  );
}
