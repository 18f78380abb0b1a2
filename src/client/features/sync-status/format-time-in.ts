import type { IntlShape } from 'react-intl';

/** A time this far after now was stamped before the tablet's clock was set back. */
const FUTURE_SLACK_MS = 45_000;

/**
 * format-time.ts's `formatSince` in the active language, with the same steps and the same null:
 * "just now", "4 min ago", "2 h ago", else the date and time in the language's own way. (The
 * English `formatSince` stays for its other callers while "… ago" formatters are unified; this
 * one follows its rules: keep them the same.)
 */
export function sinceIn(intl: IntlShape, at: number, now = Date.now()): string | null {
  if (at - now > FUTURE_SLACK_MS) return null;
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return intl.formatMessage({ id: 'since.justNow', defaultMessage: 'just now' });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60)
    return intl.formatMessage(
      { id: 'since.minutes', defaultMessage: '{minutes} min ago' },
      { minutes },
    );
  const hours = Math.round(minutes / 60);
  if (hours < 24)
    return intl.formatMessage({ id: 'since.hours', defaultMessage: '{hours} h ago' }, { hours });
  return intl.formatDate(at, { dateStyle: 'medium', timeStyle: 'short' });
}

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
