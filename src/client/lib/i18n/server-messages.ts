import type { IntlShape } from 'react-intl';

/** An error as the BFF answers it: a stable code, and a sentence in English. */
export type ServerError = { code: string; message: string };

/**
 * What the server said, in the person's language: the server keeps stable error codes
 * (contract §2) and writes its sentences in English; the app says the ones a person meets in
 * the Office, Reports and Exports from its own catalogue, by code. A code with no fixed sentence
 * here (a field validation's details, an upstream's own words) is shown as the server wrote it.
 * `values`: what the screen knows that the sentence names (the username that was typed).
 */
export function serverMessage(
  intl: IntlShape,
  error: ServerError,
  values: { username?: string } = {},
): string {
  const t = intl.formatMessage;
  switch (error.code) {
    case 'username_taken':
      return values.username
        ? t(
            {
              id: 'server.usernameTaken',
              defaultMessage:
                'The username {username} is already used (usernames ignore upper and lower case): choose another',
            },
            { username: values.username },
          )
        : error.message;
    case 'own_account':
      return t({
        id: 'server.ownAccount',
        defaultMessage: 'You cannot deactivate or demote your own account: ask another manager',
      });
    case 'last_manager':
      return t({
        id: 'server.lastManager',
        defaultMessage:
          'This is the agency’s last active manager: make someone else a manager first',
      });
    case 'forbidden':
      return t({
        id: 'server.forbidden',
        defaultMessage:
          'Your account is not allowed to do this. Ask a manager of your agency if you need it.',
      });
    case 'reauth_required':
    case 'unauthenticated':
    case 'token_expired':
      return t({
        id: 'server.reauth',
        defaultMessage: 'Your sign-in has expired: sign in again, then try again.',
      });
    case 'rate_limited':
      return t({
        id: 'server.rateLimited',
        defaultMessage:
          'The server is busy with an earlier request of yours: wait a minute, then try again.',
      });
    case 'upstream_unavailable':
    case 'upstream_timeout':
      return t({
        id: 'server.upstreamUnavailable',
        defaultMessage:
          'The records service did not answer as it should: nothing was changed. Try again in a minute.',
      });
    case 'internal':
      return t({
        id: 'server.internal',
        defaultMessage: 'The server had a problem: nothing was changed. Try again in a minute.',
      });
    case 'not_found':
      return t({
        id: 'server.notFound',
        defaultMessage: 'The server no longer has this: open the list again.',
      });
    default:
      return error.message;
  }
}

/** A field's message from the server, by the error's code where it has a fixed one. */
export function serverFieldMessage(intl: IntlShape, code: string, message: string): string {
  if (code === 'username_taken')
    return intl.formatMessage({
      id: 'server.field.usernameTaken',
      defaultMessage: 'Already used: choose another',
    });
  return message;
}
