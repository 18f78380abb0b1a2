import type { SessionInfo } from '#shared';
import { useI18n } from '../../lib/i18n';
import { Dialog } from '../../ui/dialog';
import { SignInForm } from './sign-in-form';

/**
 * Opens over the current screen when the server asks for the password again. The screen and any
 * open form stay mounted underneath, with what was typed; queued work waits, nothing is lost.
 */
export function SignInSheet({
  open,
  username,
  onSignedIn,
  onLater,
}: {
  open: boolean;
  username: string;
  onSignedIn: (s: SessionInfo) => void | Promise<void>;
  onLater: () => void;
}) {
  const intl = useI18n();
  return (
    <Dialog
      open={open}
      title={intl.formatMessage({ id: 'signInSheet.title', defaultMessage: 'Sign in again' })}
      onClose={onLater}
    >
      <p>
        {intl.formatMessage({
          id: 'signInSheet.intro',
          defaultMessage:
            'Your session has ended. Sign in to send your saved work; nothing you entered is lost.',
        })}
      </p>
      <SignInForm username={username} onSignedIn={onSignedIn} />
      <button type="button" className="button button-quiet" onClick={onLater}>
        {intl.formatMessage({ id: 'signInSheet.later', defaultMessage: 'Later' })}
      </button>
    </Dialog>
  );
}
