/**
 * Seed data. `seedIfEmpty(db, {demoPassword, dataDir})` for a new installation; tests that want
 * only lookups and accounts call `seedLookups(db)` (seed-lookups.ts) then
 * `seedDemoAgencies(db, {password})` (seed-demo-agencies.ts), see test/server/helpers/records-app.ts.
 */
export { seedIfEmpty, type SeedResult } from './seed-if-empty';
export { seedDemoSites } from './seed-demo-sites';
export { seedDemoActivity } from './seed-demo-activity';
export * from './lookup-data';
