import { sessionInfo, type LoginRequest, type SessionInfo } from '#shared/schemas/auth';
import { defineMessages } from 'react-intl';
import { NetworkError, request } from '../../lib/http';
import type { Said } from '../../lib/i18n';

/** What the sign-in steps say when they fail: what happened and what to do. */
const said = defineMessages({
  temporaryExpired: {
    id: 'signIn.failure.temporaryExpired',
    defaultMessage:
      'This temporary password has expired (they last 7 days). Ask a manager for a new one.',
  },
  invalid: {
    id: 'signIn.failure.invalid',
    defaultMessage: 'Wrong username or password. Check both and try again.',
  },
  rateLimited: {
    id: 'signIn.failure.rateLimited',
    defaultMessage: 'Too many sign-in attempts. Wait {secs} seconds, then try again.',
  },
  serverDown: {
    id: 'signIn.failure.serverDown',
    defaultMessage:
      'The server cannot sign you in right now. Your saved work is safe; try again in a minute.',
  },
  other: { id: 'signIn.failure.other', defaultMessage: 'Sign-in failed ({code}). Try again.' },
  unexpected: {
    id: 'signIn.failure.unexpected',
    defaultMessage: 'The server answered in an unexpected way. Try again.',
  },
  offline: {
    id: 'signIn.failure.offline',
    defaultMessage:
      'No connection: signing in needs the network. Your saved work stays on this tablet.',
  },
  offlinePassword: {
    id: 'choosePassword.failure.offline',
    defaultMessage: 'No connection: choosing a password needs the network. Try again when online.',
  },
});

export type SignInResult =
  | { ok: true; session: SessionInfo }
  | { ok: false; message: Said; field?: 'username' | 'password' }
  /** The password was a temporary one: the person chooses their own before the session starts. */
  | { ok: false; choosePassword: true };

/** What choosing a password answers: the session, or what to say and beside which fields. */
export type ChoosePasswordResult =
  | { ok: true; session: SessionInfo }
  | { ok: false; message: Said; fields: Array<{ path: string; message: string }> };

/** Sign-in errors in words: what happened and what to do. */
function messageFor(
  status: number,
  code: string,
  retryAfterMs: number | null,
): Exclude<SignInResult, { ok: true }> {
  if (code === 'password_change_required') return { ok: false, choosePassword: true };
  if (code === 'temporary_password_expired')
    return {
      ok: false,
      message: { message: said.temporaryExpired },
      field: 'password',
    };
  if (code === 'invalid_credentials')
    return {
      ok: false,
      message: { message: said.invalid },
      field: 'password',
    };
  if (code === 'rate_limited' || status === 429) {
    const secs = retryAfterMs ? Math.ceil(retryAfterMs / 1000) : 60;
    return {
      ok: false,
      message: { message: said.rateLimited, values: { secs } },
    };
  }
  if (status >= 500)
    return {
      ok: false,
      message: { message: said.serverDown },
    };
  return { ok: false, message: { message: said.other, values: { code } } };
}

/** POST /api/session: the BFF keeps the token; the app gets only who is signed in. */
export async function signIn(credentials: LoginRequest): Promise<SignInResult> {
  try {
    const res = await request<unknown>('/api/session', { method: 'POST', body: credentials });
    if (!res.ok) return messageFor(res.status, res.error.code, res.retryAfterMs);
    const parsed = sessionInfo.safeParse(res.body);
    if (!parsed.success) return { ok: false, message: { message: said.unexpected } };
    return { ok: true, session: parsed.data };
  } catch (e) {
    if (e instanceof NetworkError)
      return {
        ok: false,
        message: { message: said.offline },
      };
    throw e;
  }
}

/**
 * POST /api/session/password: the "choose your password" step of a first sign-in. The BFF signs
 * in with the temporary password, sets the new one and starts the session.
 */
export async function choosePassword(body: {
  username: string;
  password: string;
  new_password: string;
}): Promise<ChoosePasswordResult> {
  try {
    const res = await request<unknown>('/api/session/password', { method: 'POST', body });
    if (!res.ok) {
      if (res.status === 422)
        return {
          ok: false,
          message: { text: res.error.message },
          fields: res.error.fields ?? [],
        };
      const failure = messageFor(res.status, res.error.code, res.retryAfterMs);
      return {
        ok: false,
        message: 'message' in failure ? failure.message : { text: res.error.message },
        fields: [],
      };
    }
    const parsed = sessionInfo.safeParse(res.body);
    if (!parsed.success)
      return {
        ok: false,
        message: { message: said.unexpected },
        fields: [],
      };
    return { ok: true, session: parsed.data };
  } catch (e) {
    if (e instanceof NetworkError)
      return {
        ok: false,
        message: { message: said.offlinePassword },
        fields: [],
      };
    throw e;
  }
}

/** DELETE /api/session. Offline, the server session simply expires on its own. */
export async function signOut(): Promise<void> {
  try {
    await request('/api/session', { method: 'DELETE', timeoutMs: 5_000 });
  } catch {
    // Offline sign-out: the identity is dropped locally regardless.
  }
}
