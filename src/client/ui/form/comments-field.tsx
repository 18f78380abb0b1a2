import type { FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { useI18n } from '../../lib/i18n';
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
  const intl = useI18n();
  return (
    <Field
      label={intl.formatMessage({ id: 'form.comments', defaultMessage: 'Comments' })}
      error={error}
    >
      <textarea rows={3} {...register('comments' as Path<T>, { setValueAs: asOptionalText })} />
    </Field>
  );
}
