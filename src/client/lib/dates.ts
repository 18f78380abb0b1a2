/** Date helpers for forms: local input values ↔ ISO 8601 with the device's offset. */

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of a date in local time. */
export function localDate(d: Date = new Date()): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** `YYYY-MM-DDTHH:mm` of a date in local time: the value of an `<input type="datetime-local">`. */
export function localDateTime(d: Date = new Date()): string {
  return `${localDate(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `±HH:MM` offset of a local date (e.g. `-07:00` in a California summer). */
function offsetOf(d: Date): string {
  const minutes = -d.getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** `2026-07-14T06:30` (local) → `2026-07-14T06:30:00-07:00`; a date-only value passes through. */
export function toIsoWithOffset(local: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(local)) return local;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) return local;
  const d = new Date(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6] ?? 0),
  );
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${offsetOf(d)}`;
}

/** ISO input or output date → local `YYYY-MM-DDTHH:mm` for an input (date-only stays a date). */
export function toLocalInput(iso: string | null | undefined, dateOnly = false): string {
  if (!iso) return '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) return dateOnly ? iso : `${iso}T00:00`;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return dateOnly ? iso.slice(0, 10) : localDateTime(d);
}

/**
 * The calendar day (`YYYY-MM-DD`) a stored collection date falls on, as the technician wrote it.
 * A date-only collection is stored by the server as UTC midnight of that day: its day is the
 * first ten characters whatever the device's zone (converting it would show it a day early west
 * of UTC).
 */
export function dayOf(iso: string | null | undefined, dateOnly = false): string {
  if (!iso) return '';
  if (dateOnly && /^\d{4}-\d{2}-\d{2}/.test(iso)) return iso.slice(0, 10);
  if (/^\d{4}-\d{2}-\d{2}/.test(iso) && !iso.endsWith('Z')) return iso.slice(0, 10);
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso.slice(0, 10) : localDate(d);
}

/**
 * Human date for lists: `Jul 14, 2026, 06:30 AM` or `Jul 14, 2026` for date-only values (whose
 * day is read as written, never shifted by the device's zone: see `dayOf`).
 */
export function formatDate(iso: string | null | undefined, dateOnly = false): string {
  if (!iso) return '';
  const day = dateOnly && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : iso;
  const d = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00`) : new Date(day);
  if (Number.isNaN(d.getTime())) return iso;
  const opts: Intl.DateTimeFormatOptions =
    dateOnly || /^\d{4}-\d{2}-\d{2}$/.test(day)
      ? { year: 'numeric', month: 'short', day: 'numeric' }
      : { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' };
  return d.toLocaleString('en-US', opts);
}
