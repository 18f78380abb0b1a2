import { Dialog } from '../../ui/dialog';
import { LEAVE_QUESTION } from '../../ui/form/leave-guard';

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
  return (
    <Dialog open={open} title={LEAVE_QUESTION} onClose={onKeep}>
      <p>What you typed on this screen has not been saved.</p>
      <div className="row wrap">
        <button type="button" className="button button-primary" autoFocus onClick={onKeep}>
          Keep editing
        </button>
        <button type="button" className="button button-danger" onClick={onDiscard}>
          Discard changes
        </button>
      </div>
    </Dialog>
  );
}
