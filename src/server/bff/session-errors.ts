import { HttpError } from '../http/http-error';

/** No session (or an unknown one): the app shows the sign-in screen. */
export const unauthenticated = () =>
  new HttpError(401, 'unauthenticated', 'You are not signed in: sign in to continue');

/** The upstream token has expired: the app keeps every queued item and asks for the password. */
export const reauthRequired = () =>
  new HttpError(
    401,
    'reauth_required',
    'Your sign-in has expired: enter your password again. Nothing you saved is lost.',
  );

/**
 * The app acts for another user than the session's (OWNER_HEADER): another user signed in in
 * another tab. Answered like an expired sign-in, so the app keeps its queue and asks its own
 * user for the password; nothing is sent or read under the other user's session.
 */
export const otherUserSignedIn = () =>
  new HttpError(
    401,
    'reauth_required',
    'Someone else signed in on this device: enter your password again to go on. Nothing you saved is lost.',
  );
