import type { IntlShape } from 'react-intl';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A record's date in the active language ("Jul 14, 2026, 06:30 AM", "14 jul 2026, 06:30"), or
 * only its day for a date-only value, whose day is read as written (never shifted by the
 * tablet's zone: see lib/dates `dayOf`). The one date formatter of the app's screens.
 */
export function dateIn(intl: IntlShape, iso: string | null | undefined, dateOnly = false): string {
  if (!iso) return '';
  const day = dateOnly && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : iso;
  const d = DAY.test(day) ? new Date(`${day}T00:00`) : new Date(day);
  if (Number.isNaN(d.getTime())) return iso;
  // The tablet's zone now, named: react-intl keeps its formatters, and one made before the zone
  // changed (a tablet carried across a zone line, the page left open) would keep the old one.
  const timeZone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return dateOnly || DAY.test(day)
    ? intl.formatDate(d, { year: 'numeric', month: 'short', day: 'numeric', timeZone })
    : intl.formatDate(d, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone,
      });
}
