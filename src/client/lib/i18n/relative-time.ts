import type { IntlShape } from 'react-intl';

/** A time this far after now was stamped before the tablet's clock was set back. */
const FUTURE_SLACK_MS = 45_000;

/**
 * How long ago `at` was, in the active language: "just now", "4 min ago", "2 h ago", else the
 * date and time in the language's own way; null when it cannot be told (stamped while the
 * tablet's clock ran ahead: it must never read as "just now"). The one "… ago" of the app.
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
