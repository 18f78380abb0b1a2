import { Dialog } from '../../ui/dialog';
import { useI18n } from '../../lib/i18n';

/**
 * Cancel's question over a form holding typing, in the words and order of the navigation links'
 * (LeaveGuard): "Keep editing" is the default answer, so a stray tap on Cancel loses nothing.
 */
export function DiscardQuestion({
  open,
  onKeep,
  onDiscard,
}: {
  open: boolean;
  onKeep: () => void;
  onDiscard: () => void;
}) {
  // The navigation links' question (LeaveGuard), in its words.
  const intl = useI18n();
  const t = intl.formatMessage;
  return (
    <Dialog
      open={open}
      title={t({ id: 'leave.question', defaultMessage: 'Discard the changes you typed?' })}
      onClose={onKeep}
    >
      <p>
        {t({
          id: 'leave.notSaved',
          defaultMessage: 'What you typed on this screen has not been saved.',
        })}
      </p>
      <div className="row wrap">
        <button type="button" className="button button-primary" autoFocus onClick={onKeep}>
          {t({ id: 'leave.keepEditing', defaultMessage: 'Keep editing' })}
        </button>
        <button type="button" className="button button-danger" onClick={onDiscard}>
          {t({ id: 'leave.discard', defaultMessage: 'Discard changes' })}
        </button>
      </div>
    </Dialog>
  );
}
