import { useState } from 'react';
import { useI18n } from '../../lib/i18n';

/**
 * A secret the server shows once (a temporary password, an agency token): big, selectable, with
 * a Copy button, and a plain warning that it will not be shown again.
 */
export function ShownOnce({
  label,
  secret,
  note,
  onDone,
}: {
  label: string;
  secret: string;
  note: string;
  onDone: () => void;
}) {
  const t = useI18n().formatMessage;
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section className="card shown-once" aria-label={label}>
      <h3>{label}</h3>
      <p className="shown-once-secret" data-testid="shown-once-secret">
        {secret}
      </p>
      <p>
        {t(
          { id: 'office.shownOnce.note', defaultMessage: '{note} It is shown only now.' },
          { note },
        )}
      </p>
      <div className="office-actions">
        <button type="button" className="button button-primary" onClick={() => void copy()}>
          {t({ id: 'office.shownOnce.copy', defaultMessage: 'Copy' })}
        </button>
        <button type="button" className="button button-quiet" onClick={onDone}>
          {t({ id: 'office.shownOnce.done', defaultMessage: 'Done' })}
        </button>
      </div>
      <p role="status" className="muted">
        {copied === 'yes'
          ? t({ id: 'office.shownOnce.copied', defaultMessage: 'Copied.' })
          : copied === 'failed'
            ? t({
                id: 'office.shownOnce.copyFailed',
                defaultMessage: 'This browser did not allow copying: select the text and copy it.',
              })
            : ''}
      </p>
    </section>
  );
}
