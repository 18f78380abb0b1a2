import type { Database } from '../db/database';
import type { IdempotencyJournal } from './idempotency-journal';
import type { LoginLimitOptions } from '../http/login-limits';
import type { LookupCache } from './lookup-cache';
import type { SessionStore } from './session-store';
import type { UpstreamClient } from './upstream-client';
import type { UpstreamKeys } from './upstream-keys';

/** What every BFF module is given. */
export type BffContext = {
  db: Database;
  upstream: UpstreamClient;
  /** Whether the upstream honours Idempotency-Key (detected). */
  upstreamKeys: UpstreamKeys;
  sessions: SessionStore;
  journal: IdempotencyJournal;
  lookups: LookupCache;
  loginLimits: LoginLimitOptions;
  tileUrl: string;
  /** The operator says TILE_URL's server allows bulk downloading (offline map areas). */
  tileBulkDownload?: boolean;
  /** Path of the agency's PMTiles map archive (TILE_PMTILES), served at /map/archive.pmtiles. */
  tileArchive?: string;
  /** The map's credit line as plain text (TILE_ATTRIBUTION); unset: see tileCredit. */
  tileAttribution?: string;
  /** Extra origins allowed to change state (besides the request's own host), e.g. a TLS proxy's. */
  allowedOrigins: string[];
  now: () => Date;
};
