import type { FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { Field } from './field';
import { asNumber } from './form-errors';

/**
 * A number typed on a tablet: the numeric keyboard (`decimal` adds the point), no autofill, and
 * the value handed to the schema as a number, empty as undefined and text as NaN (so the schema
 * says "required" or "must be a number", never a wrong count).
 */
export function NumberField<T extends FieldValues>({
  register,
  name,
  label,
  error,
  decimal = false,
}: {
  register: UseFormRegister<T>;
  name: Path<T>;
  label: string;
  error: string | null;
  decimal?: boolean;
}) {
  return (
    <Field label={label} error={error}>
      <input
        inputMode={decimal ? 'decimal' : 'numeric'}
        enterKeyHint="next"
        autoComplete="off"
        {...register(name, { setValueAs: asNumber })}
      />
    </Field>
  );
}
