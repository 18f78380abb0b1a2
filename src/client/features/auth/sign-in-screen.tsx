import type { SessionInfo } from '#shared';
import { useI18n } from '../../lib/i18n';
import { SignInForm } from './sign-in-form';

/** First screen on a tablet nobody is signed in to. */
export function SignInScreen({
  onSignedIn,
  onSending,
}: {
  onSignedIn: (session: SessionInfo) => void | Promise<void>;
  /** The sign-in is on its way (SignInForm's `onSending`). */
  onSending?: () => void;
}) {
  const intl = useI18n();
  return (
    <main className="signin">
      <h1>Trapline</h1>
      <p>
        {intl.formatMessage({
          id: 'signIn.intro',
          defaultMessage:
            'Sign in with your agency account. After that the app works without a network.',
        })}
      </p>
      <SignInForm onSignedIn={onSignedIn} onSending={onSending} />
    </main>
  );
}
