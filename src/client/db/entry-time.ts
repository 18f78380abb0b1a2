let last = 0;

/**
 * When an outbox entry or a record is made: `Date.now()`, but never the same or an earlier time twice in
 * this page. The outbox sends a record's entries in the order of `createdAt`, ties broken by id,
 * which is random; two saves of one record in the same millisecond (a double tap, a form saving
 * right after another) would otherwise go out in either order, and the value saved first could
 * end as the record's. Runs ahead of the clock by at most a millisecond per entry made in the
 * same millisecond. Another tab keeps its own: entries of one record saved by two tabs in the
 * same millisecond stay ordered by id.
 */
export function entryTime(): number {
  last = Math.max(Date.now(), last + 1);
  return last;
}
