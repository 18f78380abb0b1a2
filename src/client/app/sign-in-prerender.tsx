import { renderToString } from 'react-dom/server';
import { SignInScreen } from '../features/auth/sign-in-screen';
import { SHELL_GATE_CONFIG, signInShellGate } from '../lib/prerendered-sign-in';
import { AppFrame } from './app-frame';

/**
 * Build-time only (vite.config.ts `prerenderSignIn` loads this module in Node; the app never
 * imports it). The sign-in screen as the app first renders it for a fresh tablet: the same
 * frame, in English, so the browser paints the form from index.html alone and React hydrates
 * it instead of drawing it again.
 */
export function signInScreenMarkup(): string {
  return renderToString(
    <AppFrame owner={null}>
      <SignInScreen onSignedIn={() => undefined} />
    </AppFrame>,
  );
}

/** The gate (lib/prerendered-sign-in) as an inline script's text. */
export function signInShellGateScript(): string {
  return `(${signInShellGate.toString()})(${JSON.stringify(SHELL_GATE_CONFIG)});`;
}
