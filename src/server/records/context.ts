import type { Database } from '../db/database';
import type { LoginLimitOptions } from '../http/login-limits';
import type { LookupCatalog } from './common/lookup-catalog';

/** What every route module of the records service is given. */
export type RecordsContext = {
  db: Database;
  /** Lifetime of login tokens (`TRAPLINE_TOKEN_TTL_S`, default 3600). */
  tokenTtlSeconds: number;
  /**
   * How long after its expiry a login token may still be exchanged, once, for a new one
   * (`TRAPLINE_RENEW_WINDOW_S`, default a week): a tablet unused for longer asks for the password.
   */
  renewWindowSeconds: number;
  /** Addresses of proxies whose `X-Forwarded-Proto: https` is believed (contract §8). */
  trustProxy: string[];
  /** Honour `Idempotency-Key` (contract §9). Off only to imitate a hosted service without it. */
  idempotency: boolean;
  /** Clock, replaceable in tests. */
  now: () => Date;
  /** Sign-in limits (contract §7); tests may lower them. */
  loginLimits: LoginLimitOptions;
  /** The active lookup entries, held while the database's lookup version stands. */
  lookups: LookupCatalog;
};
