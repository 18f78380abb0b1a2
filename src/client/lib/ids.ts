/** Client UUIDs: record `localId`s and outbox entry ids (the Idempotency-Key of a POST). */
export function newId(): string {
  return crypto.randomUUID();
}
