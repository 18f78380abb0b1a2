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
