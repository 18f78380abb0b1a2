import type { IntlShape } from 'react-intl';
import { MIN_PASSWORD_LENGTH } from '#shared/schemas/people';

/**
 * Messages that src/shared writes in English (zod schemas and rules used by the server too),
 * translated by their exact English text until they carry codes (issue 38: the BFF's and the
 * shared layer's messages get codes the client translates). A text not listed passes through.
 */
export function translateShared(intl: IntlShape, text: string | undefined): string | undefined {
  switch (text) {
    case 'Enter your username':
      return intl.formatMessage({
        id: 'shared.enterUsername',
        defaultMessage: 'Enter your username',
      });
    case 'Enter your password':
      return intl.formatMessage({
        id: 'shared.enterPassword',
        defaultMessage: 'Enter your password',
      });
    case `Use at least ${MIN_PASSWORD_LENGTH} characters`:
      return intl.formatMessage(
        { id: 'shared.passwordTooShort', defaultMessage: 'Use at least {min} characters' },
        { min: MIN_PASSWORD_LENGTH },
      );
    case 'Choose something other than your username':
      return intl.formatMessage({
        id: 'shared.passwordIsUsername',
        defaultMessage: 'Choose something other than your username',
      });
    case 'Use at least 3 characters':
      return intl.formatMessage(
        { id: 'shared.passwordTooShort', defaultMessage: 'Use at least {min} characters' },
        { min: 3 },
      );
    case 'Use at most 64 characters':
    case 'Use at most 200 characters':
      return intl.formatMessage(
        { id: 'shared.tooLong', defaultMessage: 'Use at most {max} characters' },
        { max: Number(/\d+/.exec(text)?.[0]) },
      );
    case 'Use letters, digits and . _ - @ only (no spaces)':
      return intl.formatMessage({
        id: 'shared.usernameCharacters',
        defaultMessage: 'Use letters, digits and . _ - @ only (no spaces)',
      });
    case 'Enter the person’s name':
      return intl.formatMessage({
        id: 'shared.enterFullName',
        defaultMessage: 'Enter the person’s name',
      });
    case 'Choose manager or user':
      return intl.formatMessage({
        id: 'shared.chooseRole',
        defaultMessage: 'Choose manager or technician',
      });
    default:
      return text;
  }
}
