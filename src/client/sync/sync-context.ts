import type { TraplineDb } from '../db/database';
import type { BackoffOptions } from './backoff';

/** What every step of the engine needs: the database, the clock and the way to reach the BFF. */
export type SyncContext = {
  db: TraplineDb;
  /** Prefix of `/api/...` (empty in the browser: same origin). */
  baseUrl: string;
  /** Extra headers on every request (e.g. a session cookie when not running in a browser). */
  headers: Record<string, string>;
  now: () => number;
  random: () => number;
  backoff: BackoffOptions;
  /** Per-request timeout (ms): a hung request must not stall the queue. */
  timeoutMs: number;
  /**
   * True once the engine has stopped (signed out, another user's session, the app closed): a
   * pull under way then asks for no further page. Each would go out under whoever is signed in
   * by then, for a database no longer shown. Requests already sent are answered and handled.
   */
  stopped: () => boolean;
};
