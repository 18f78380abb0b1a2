import type { IntlShape } from 'react-intl';

export { sinceIn } from '../../lib/i18n';

/** format-time.ts's `formatUntil` in the active language: "now", "in under a minute", "in 3 min", "later". */
export function untilIn(intl: IntlShape, at: number, now = Date.now()): string {
  const ms = at - now;
  if (ms <= 0) return intl.formatMessage({ id: 'until.now', defaultMessage: 'now' });
  if (ms < 60_000)
    return intl.formatMessage({ id: 'until.underMinute', defaultMessage: 'in under a minute' });
  const minutes = Math.ceil(ms / 60_000);
  return minutes > 60
    ? intl.formatMessage({ id: 'until.later', defaultMessage: 'later' })
    : intl.formatMessage({ id: 'until.minutes', defaultMessage: 'in {minutes} min' }, { minutes });
}
