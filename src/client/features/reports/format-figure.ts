import type { IntlShape } from 'react-intl';
import { englishIntl } from '../../lib/i18n';

/**
 * Figures as a person reads them, through Intl.NumberFormat in the person's language (react-intl
 * keeps one formatter per options). The BFF sends vectorsurvR's doubles (12.666666…, rounded to
 * 4 decimals at most); the CSV keeps them whole, the screen rounds them to what a district acts on.
 */

/**
 * Two decimals, but never fewer than two significant digits: 36.0769 → 36.08, 1,234,567 as it
 * is, and an early-season CDC vector index of 0.00002345 → 0.000023, never 0 ("no virus").
 */
const FIGURE = {
  maximumFractionDigits: 2,
  maximumSignificantDigits: 2,
  roundingPriority: 'morePrecision',
} as const;

/**
 * A change against the average, in whole percent (a small change keeps two significant digits),
 * signed so that above the average reads as such: +233 beside −16.
 */
const PERCENT_CHANGE = {
  maximumFractionDigits: 0,
  maximumSignificantDigits: 2,
  roundingPriority: 'morePrecision',
  signDisplay: 'exceptZero',
} as const;

export const formatFigure = (value: number, intl: IntlShape = englishIntl()): string =>
  intl.formatNumber(value, FIGURE);

export const formatPercentChange = (value: number, intl: IntlShape = englishIntl()): string =>
  intl.formatNumber(value, PERCENT_CHANGE);
