import type { IntlShape } from 'react-intl';
import { serverMessage } from '../../lib/i18n';
import type { OfficeFailure } from './office-api';

/** An Office call's failure in the person's language (the server's by its code). */
export function officeFailureText(
  intl: IntlShape,
  failure: OfficeFailure,
  values: { username?: string } = {},
): string {
  if (failure.code === 'offline')
    return intl.formatMessage({
      id: 'office.offline',
      defaultMessage:
        'No connection: the Office needs the network. Nothing was changed; try again.',
    });
  return serverMessage(intl, failure, values);
}
