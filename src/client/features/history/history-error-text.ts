import type { IntlShape } from 'react-intl';
import { serverMessage } from '../../lib/i18n';
import type { HistoryError } from './fetch-history';

/** Why a history cannot be shown, in the person's language. */
export function historyErrorText(intl: IntlShape, error: HistoryError): string {
  const t = intl.formatMessage;
  switch (error.reason) {
    case 'offline':
      return t({
        id: 'history.error.offline',
        defaultMessage: 'The history is kept on the server, which could not be reached.',
      });
    case 'reauth':
      return t({
        id: 'history.error.reauth',
        defaultMessage: 'Your sign-in has expired: sign in again to see the history.',
      });
    case 'not_found':
      return t({
        id: 'history.error.notFound',
        defaultMessage: 'The server has no history for this record.',
      });
    case 'forbidden':
      return error.server ? serverMessage(intl, error.server) : error.message;
    case 'server':
      if (error.unreadable || !error.server)
        return t({
          id: 'history.error.unreadable',
          defaultMessage: 'The server answered with a history this app cannot read.',
        });
      return t(
        { id: 'history.error.server', defaultMessage: 'The history could not be read ({why}).' },
        { why: serverMessage(intl, error.server) },
      );
  }
}
