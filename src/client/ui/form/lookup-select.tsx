import type { FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { useI18n } from '../../lib/i18n';
import { Field } from './field';
import { asNumber } from './form-errors';
import { listKey } from './list-key';

export type LookupOption = { id: number; label: string };

/**
 * A choice from one of the agency's lookup lists (trap type, species, test method...): the
 * record holds the entry's id, so the value reaches the schema as a number; nothing is chosen
 * until the technician chooses ("Choose…").
 */
export function LookupSelect<T extends FieldValues>({
  register,
  name,
  label,
  error,
  options,
}: {
  register: UseFormRegister<T>;
  name: Path<T>;
  label: string;
  error: string | null;
  options: readonly LookupOption[];
}) {
  const intl = useI18n();
  return (
    <Field label={label} error={error}>
      <select key={listKey(options)} {...register(name, { setValueAs: asNumber })}>
        <option value="">
          {intl.formatMessage({ id: 'form.choose', defaultMessage: 'Choose…' })}
        </option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
