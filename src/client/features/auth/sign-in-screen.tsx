import type { SessionInfo } from '#shared';
import { SignInForm } from './sign-in-form';

/** First screen on a tablet nobody is signed in to. */
export function SignInScreen({
  onSignedIn,
}: {
  onSignedIn: (session: SessionInfo) => void | Promise<void>;
}) {
  return (
    <main className="signin">
      <h1>Trapline</h1>
      <p>Sign in with your agency account. After that the app works without a network.</p>
      <SignInForm onSignedIn={onSignedIn} />
    </main>
  );
}
