/** A time this far after now was stamped before the tablet's clock was set back. */
const FUTURE_SLACK_MS = 45_000;

/**
 * "just now", "4 min ago", "2 h ago", else the date and time: when the tablet last reached the
 * server. Null for a time in the future (stamped while the clock ran ahead, since corrected):
 * how long ago it was cannot be told, and it must never read as "just now".
 */
export function formatSince(at: number, now = Date.now()): string | null {
  if (at - now > FUTURE_SLACK_MS) return null;
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * "now", "in under a minute", "in 3 min": when a retry is due. Rounded up, so it is never said
 * sooner than it comes. Over an hour away says only "later": a server asked for a long wait, or
 * the clock was set back since the time was set (the retry then comes after its wait anyway).
 */
export function formatUntil(at: number, now = Date.now()): string {
  const ms = at - now;
  if (ms <= 0) return 'now';
  if (ms < 60_000) return 'in under a minute';
  const minutes = Math.ceil(ms / 60_000);
  return minutes > 60 ? 'later' : `in ${minutes} min`;
}
