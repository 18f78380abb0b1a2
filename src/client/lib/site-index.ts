import { startTransition, useEffect, useMemo, useState } from 'react';
import type { LatLon } from './geo';
import type { NearbySite, SearchResult } from './site-index-core';
import type { ChecksAnswer, IndexMessage, IndexRequest, IndexSummary } from './site-index-protocol';
import type { MapFeature } from './site-map-features';
import { joinChecks, type SiteCheck } from './site-check';
import { snapshotKept } from './site-index-snapshot';

export type { NearbySite, SearchResult } from './site-index-core';
export type { IndexedSite, MapFeature } from './site-map-features';
export { applyChecks, placeOf, siteCheckOf, type SiteCheck } from './site-check';

type Question = IndexRequest extends infer R ? (R extends { id: number } ? R : never) : never;
type Unasked<Q> = Q extends unknown ? Omit<Q, 'id'> : never;

/**
 * The main thread's side of the site index worker: one per signed-in database, shared by the
 * Sites list and the map. Asks are answered in order; `summary` changes (a new `version`) when the
 * stored sites changed, and subscribers are told.
 */
export class SiteIndex {
  summary: IndexSummary | null = null;
  failure: string | null = null;
  private readonly worker: Worker;
  private readonly waiting = new Map<number, (result: unknown) => void>();
  /** Checks sent ahead of their answer, by question (checksMessages). */
  private readonly parts = new Map<number, SiteCheck[][]>();
  private readonly listeners = new Set<() => void>();
  private nextId = 1;
  users = 0;
  /** Its worker failed (onerror): the next screen to open the index starts a new one. */
  broken = false;

  /** `read` false: the kept snapshot alone until the sites as stored are asked for (`read()`). */
  constructor(
    readonly dbName: string,
    read = true,
  ) {
    // Vite bundles the worker as its own chunk; the service worker precaches it with the app.
    this.worker = new Worker(new URL('./site-index.worker.ts', import.meta.url), {
      type: 'module',
      name: 'site-index',
    });
    this.worker.onmessage = (event: MessageEvent<IndexMessage>) => this.receive(event.data);
    // The worker's script did not load (its file neither served nor cached), or an error
    // escaped it: the questions waiting will get no answer. Said as the index's failure, so the
    // screens waiting for it say so or read the sites themselves instead of "Loading…" for ever
    // (a worker that recovers and reads the sites again clears it: 'loaded').
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.broken = true;
      this.fail(event.message || 'site index worker not loaded');
    };
    this.send({ type: 'open', dbName, read });
  }

  /** Reads the sites as stored, if they were not read or changed since (opened on a snapshot). */
  read(): void {
    this.send({ type: 'read' });
  }

  private send(message: IndexRequest): void {
    this.worker.postMessage(message);
  }

  private receive(m: IndexMessage): void {
    if (m.type === 'checksPart') {
      const parts = this.parts.get(m.id);
      if (parts) parts.push(m.checks);
      else this.parts.set(m.id, [m.checks]);
    } else if (m.type === 'answer') {
      const parts = this.parts.get(m.id);
      this.parts.delete(m.id);
      this.waiting.get(m.id)?.(parts ? joinChecks(parts, m.result as ChecksAnswer) : m.result);
      this.waiting.delete(m.id);
    } else if (m.type === 'loaded') {
      this.summary = m.summary;
      this.failure = null;
      this.notify();
    } else {
      // The worker could not read the sites but is alive: questions waiting may yet be answered.
      this.failure = m.message;
      this.notify();
    }
  }

  /** The worker failed: questions waiting are answered with nothing (undefined), listeners told. */
  private fail(message: string): void {
    this.failure = message;
    this.answerNone();
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  private answerNone(): void {
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
    this.parts.clear();
  }

  private ask<T>(question: Unasked<Question>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve) => {
      this.waiting.set(id, resolve as (result: unknown) => void);
      this.send({ ...question, id } as IndexRequest);
    });
  }

  search(query: string, limit: number): Promise<SearchResult> {
    return this.ask({ type: 'search', query, limit });
  }

  view(bbox: [number, number, number, number], zoom: number): Promise<MapFeature[]> {
    return this.ask({ type: 'view', bbox, zoom });
  }

  nearest(here: LatLon, count: number): Promise<NearbySite[]> {
    return this.ask({ type: 'nearest', here, count });
  }

  /** The checks changed since version `known` of the index, or all of them (ChecksAnswer). */
  checksSince(known: number | null): Promise<ChecksAnswer | undefined> {
    return this.ask({ type: 'checksSince', known });
  }

  /** Calls `listener` each time the index is rebuilt or fails. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Someone shows the index: keep it current. The last one to leave lets it go stale. */
  retain(): () => void {
    this.users += 1;
    if (this.users === 1) this.send({ type: 'watch', on: true });
    return () => {
      this.users -= 1;
      if (this.users === 0) this.send({ type: 'watch', on: false });
    };
  }

  terminate(): void {
    this.worker.terminate();
    this.answerNone();
  }
}

/**
 * The index is kept for the page's life (returning to Sites is then immediate), one database at
 * a time: another user's database ends the previous worker. An index whose worker failed is
 * started again by the next screen that opens it: a worker that could not load or start once (a
 * tablet short of memory, a file not yet at hand) may now, and the screens showing the failure
 * keep the failed one until they are left.
 */
let current: SiteIndex | null = null;

function siteIndexFor(dbName: string, read = true): SiteIndex {
  if (current?.dbName !== dbName || current.broken) {
    current?.terminate();
    current = new SiteIndex(dbName, read);
  }
  return current;
}

/**
 * Starts `dbName`'s index before any screen shows it, so that Sites, the site pickers and the
 * site form find the sites read and clustered: after a pull, while the technician is on Home.
 * The read and the build run in the index's worker, off the page's thread; the worker then keeps
 * its snapshot (site-index.worker.ts) and reads again only once a screen shows it. Where there is
 * no Worker (tests in Node) the screens start it themselves.
 */
export function warmSiteIndex(dbName: string): void {
  if (typeof Worker === 'undefined') return;
  if (current?.dbName === dbName) current.read();
  else siteIndexFor(dbName);
}

/**
 * At the app's start, before its first pull has ended: starts `dbName`'s index on the snapshot
 * the tablet kept at its last visit, when there is one, and nothing more. Sites opened then shows
 * those sites at once, not after its worker has started and read the snapshot (at 100,000 sites
 * a restart's pull of every site id took seconds, and the index waited for it). The sites as
 * stored are read after the pull (warmSiteIndex) or when a screen or form needs them.
 */
export async function showKeptSites(dbName: string): Promise<void> {
  if (typeof Worker === 'undefined' || current?.dbName === dbName) return;
  if (!(await snapshotKept(dbName)) || current?.dbName === dbName) return;
  siteIndexFor(dbName, false);
}

/** Ends `dbName`'s index (its user's data is being removed): its worker keeps nothing more. */
export function endSiteIndex(dbName: string): void {
  if (current?.dbName !== dbName) return;
  current.terminate();
  current = null;
}

/**
 * The site index of `dbName` while the calling component is shown, and its summary (null until
 * the sites are first read), re-rendering when the sites change. The re-render is a transition:
 * news from the worker (the map framing 20,000 sites, the list's count) renders in slices the
 * page can interrupt, not in the task that received the message.
 */
export function useSiteIndex(dbName: string): {
  index: SiteIndex;
  summary: IndexSummary | null;
  failure: string | null;
} {
  const index = useMemo(() => siteIndexFor(dbName), [dbName]);
  useEffect(() => index.retain(), [index]);
  const [known, setKnown] = useState(() => ({
    index,
    summary: index.summary,
    failure: index.failure,
  }));
  useEffect(() => {
    const update = () =>
      startTransition(() =>
        setKnown((was) =>
          was.index === index && was.summary === index.summary && was.failure === index.failure
            ? was
            : { index, summary: index.summary, failure: index.failure },
        ),
      );
    // The worker may have answered between the first render and this subscription.
    update();
    return index.subscribe(update);
  }, [index]);
  // Another database's index: nothing known of it until its worker answers.
  const current =
    known.index === index ? known : { summary: index.summary, failure: index.failure };
  return { index, summary: current.summary, failure: current.failure };
}
