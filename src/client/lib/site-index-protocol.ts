import type { LatLon } from './geo';
import type { SiteCheck } from './site-check';

/** What the page and the site index's worker (site-index.worker.ts) say to each other. */

export type IndexSummary = {
  version: number;
  count: number;
  /** [[south, west], [north, east]] of every site with a position, or null when none has one. */
  bounds: [[number, number], [number, number]] | null;
};

/**
 * The site form's checks as the page last received them brought up to date: every check when
 * the page holds none (or ones too old to bring up to date), else the checks changed since and
 * the ids of sites gone since (applyChecks, site-check.ts).
 */
export type ChecksAnswer =
  | { version: number; all: SiteCheck[] }
  | { version: number; changed: SiteCheck[]; removed: string[] };

/** Messages to the worker. `id` pairs a question with its answer. */
export type IndexRequest =
  /**
   * `read` false: show the snapshot kept at the last visit, and read the sites as stored only
   * when asked to (`read`), when a screen shows the index (`watch`) or when a form asks for
   * checks: at a restart, before the app's first pull has ended (its writes come first).
   */
  | { type: 'open'; dbName: string; read: boolean }
  | { type: 'read' }
  | { type: 'watch'; on: boolean }
  | { type: 'search'; id: number; query: string; limit: number }
  | { type: 'view'; id: number; bbox: [number, number, number, number]; zoom: number }
  | { type: 'nearest'; id: number; here: LatLon; count: number }
  | { type: 'checksSince'; id: number; known: number | null };

/**
 * Messages from the worker: the index changed (with how many sites did: their ids would cost the
 * page a long task to receive after a first read of 20,000), or an answer.
 */
export type IndexMessage =
  | { type: 'loaded'; summary: IndexSummary; changed: number }
  | { type: 'answer'; id: number; result: unknown }
  /** Checks of a ChecksAnswer sent ahead of its 'answer', which holds the last of them. */
  | { type: 'checksPart'; id: number; checks: SiteCheck[] }
  | { type: 'failed'; message: string };
