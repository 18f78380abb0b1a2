import type { Migration } from '../migrate';
import { recordsSchema } from './001-records';
import { bffSchema } from './002-bff';
import { exactIdempotency } from './003-exact-idempotency';
import { listIndexes } from './004-list-indexes';
import { zeroSiteSchema } from './006-zero-site';
import { oneKeyPerRecord } from './007-one-key-per-record';
import { retiredPoolTests } from './008-retired-pool-tests';
import { lookupVersion } from './009-lookup-version';
import { journalKeepsHashes } from './010-journal-keeps-hashes';
import { people } from './011-people';
import { historySchema } from './012-history';
import { tokenRenewal } from './013-token-renewal';
import { attachments } from './014-attachments';

/** Every migration, in version order. Add a file per version; never edit an applied one. */
export const MIGRATIONS: Migration[] = [
  recordsSchema,
  bffSchema,
  exactIdempotency,
  listIndexes,
  zeroSiteSchema,
  oneKeyPerRecord,
  retiredPoolTests,
  lookupVersion,
  journalKeepsHashes,
  people,
  historySchema,
  tokenRenewal,
  attachments,
];
