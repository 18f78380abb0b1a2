import type { IntlShape } from 'react-intl';

/**
 * `timeAgo` (lib/dates.ts) in the active language, with the same steps: "just now", "5 minutes
 * ago", "3 hours ago", "2 days ago". lib/dates keeps the English one for the screens not
 * converted yet; when every caller is converted, that one goes.
 */
export function timeAgoIn(intl: IntlShape, ms: number, now: number = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return intl.formatMessage({ id: 'time.justNow', defaultMessage: 'just now' });
  const m = Math.round(s / 60);
  if (m < 60)
    return intl.formatMessage(
      {
        id: 'time.minutesAgo',
        defaultMessage: '{m, plural, one {# minute ago} other {# minutes ago}}',
      },
      { m },
    );
  const h = Math.round(m / 60);
  if (h < 48)
    return intl.formatMessage(
      { id: 'time.hoursAgo', defaultMessage: '{h, plural, one {# hour ago} other {# hours ago}}' },
      { h },
    );
  const d = Math.round(h / 24);
  return intl.formatMessage(
    { id: 'time.daysAgo', defaultMessage: '{d, plural, one {# day ago} other {# days ago}}' },
    { d },
  );
}
