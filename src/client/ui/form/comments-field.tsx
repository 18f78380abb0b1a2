import type { FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { Field } from './field';
import { asOptionalText } from './form-errors';

/** A record's free-text comments: three lines; blank (or spaces) is no comment, never "". */
export function CommentsField<T extends FieldValues>({
  register,
  error,
}: {
  register: UseFormRegister<T>;
  error: string | null;
}) {
  return (
    <Field label="Comments" error={error}>
      <textarea rows={3} {...register('comments' as Path<T>, { setValueAs: asOptionalText })} />
    </Field>
  );
}
