/**
 * One database per user and agency, so a shared tablet never shows one technician's unsynced
 * records to the next. The name holds no secret. A module of its own, without Dexie: the
 * app-wide error notice names the database before any of the app's data code has loaded.
 */
export function databaseName(owner: { agencyId: number; username: string }): string {
  return `trapline-a${owner.agencyId}-${encodeURIComponent(owner.username.toLowerCase())}`;
}
