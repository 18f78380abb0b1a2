import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { IntlShape } from 'react-intl';
import { translateRule } from '../../lib/i18n';

/** A save the tablet refused by rule: a message for the technician and one per field. */
export type Refusal = {
  message: string;
  fields: ReadonlyArray<{ path: string; message: string }>;
};

/**
 * What a form says when saving on the tablet failed, the same on every form. A refusal (the
 * record broke a rule the repository checks) puts each field's message beside its field and
 * returns its own words; anything else (storage full, database closed) says that nothing was
 * saved on the tablet. Either way the form keeps what was typed.
 */
export function saveErrorMessage<T extends FieldValues>(
  intl: IntlShape,
  error: unknown,
  isRefusal: (e: unknown) => e is Refusal,
  setError: UseFormSetError<T>,
  mapPath: (path: string) => string = (p) => p,
): string {
  if (isRefusal(error)) {
    for (const f of error.fields) {
      setError(mapPath(f.path) as Path<T>, { type: 'server', message: f.message });
    }
    return translateRule(intl, error.message);
  }
  return intl.formatMessage(
    { id: 'form.notSaved', defaultMessage: 'Could not save on this tablet: {reason}' },
    { reason: error instanceof Error ? error.message : String(error) },
  );
}
