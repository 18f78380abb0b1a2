import type { ReactNode } from 'react';
import { useI18n } from '../../lib/i18n';

/**
 * The bottom of a record form: the form's other actions (`extra`, e.g. Remove), Cancel when the
 * screen offers it, and the save button, disabled while a save runs so a double tap saves once.
 */
export function FormActions({
  submitLabel,
  saving,
  onCancel,
  extra = null,
}: {
  submitLabel: string;
  saving: boolean;
  onCancel?: () => void;
  extra?: ReactNode;
}) {
  const intl = useI18n();
  return (
    <div className="form-actions">
      {extra}
      {onCancel ? (
        <button type="button" className="button" onClick={onCancel}>
          {intl.formatMessage({ id: 'form.cancel', defaultMessage: 'Cancel' })}
        </button>
      ) : null}
      <button type="submit" className="button button-primary" disabled={saving}>
        {submitLabel}
      </button>
    </div>
  );
}
