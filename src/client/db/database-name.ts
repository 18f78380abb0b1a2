/**
 * One database per user and agency, so a shared tablet never shows one technician's unsynced
 * records to the next. The name holds no secret. A module of its own, without Dexie: the app's
 * error notice (app/error-boundaries.tsx) counts unsent work by this name on the first load's
 * code path, which must not pull the database library in before sign-in.
 */
export function databaseName(owner: { agencyId: number; username: string }): string {
  return `trapline-a${owner.agencyId}-${encodeURIComponent(owner.username.toLowerCase())}`;
}
