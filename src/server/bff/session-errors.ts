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
