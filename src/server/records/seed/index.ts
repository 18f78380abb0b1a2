/**
 * Seed data. `seedIfEmpty(db, {demoPassword, dataDir})` for a new installation; tests that want
 * only lookups and accounts call `seedLookups(db)` then `seedDemoAgencies(db, {password})`
 * (see test/server/helpers/records-app.ts).
 */
export { seedIfEmpty, type SeedOptions, type SeedResult } from './seed-if-empty';
export { seedLookups } from './seed-lookups';
export {
  seedDemoAgencies,
  createZeroSite,
  DEMO_AGENCIES,
  DEMO_USERS,
  type SeededAccounts,
} from './seed-demo-agencies';
export { seedDemoSites } from './seed-demo-sites';
export { seedDemoActivity } from './seed-demo-activity';
export * from './lookup-data';
