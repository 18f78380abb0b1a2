import { useContext } from 'react';
import { IntlContext, type IntlShape } from 'react-intl';
import { english } from './catalogues';
import { makeIntl } from './i18n-provider';

/** English, for a component drawn outside the provider (a unit test of one component). */
let fallback: IntlShape | null = null;

/**
 * The active language's formatter: `intl.formatMessage({ id, defaultMessage }, values)` for a
 * message (written so, `npm run i18n:extract` finds it), `intl.formatNumber`/`formatDate` for
 * figures and dates in the person's language. Outside an I18nProvider it is English, so a
 * component can be rendered alone.
 */
export function useI18n(): IntlShape {
  const intl = useContext(IntlContext) as IntlShape | null | undefined;
  return intl ?? englishIntl();
}

/**
 * English, for code without a component that takes the language as a parameter (a report's
 * chart lines, a history row's sentences): its default when none is given, as in a unit test.
 */
export function englishIntl(): IntlShape {
  return (fallback ??= makeIntl('en', english));
}
