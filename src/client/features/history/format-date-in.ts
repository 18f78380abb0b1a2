import type { IntlShape } from 'react-intl';

/**
 * lib/dates' `formatDate` in the person's language: a date alone ("2026-07-15", or `dateOnly`)
 * as that local day, a date-time with its time. An unreadable value is shown as it is.
 */
export function formatDateIn(intl: IntlShape, iso: string | null | undefined, dateOnly = false) {
  if (!iso) return '';
  const day = dateOnly && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : iso;
  const d = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00`) : new Date(day);
  if (Number.isNaN(d.getTime())) return iso;
  return dateOnly || /^\d{4}-\d{2}-\d{2}$/.test(day)
    ? intl.formatDate(d, { year: 'numeric', month: 'short', day: 'numeric' })
    : intl.formatDate(d, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      });
}
