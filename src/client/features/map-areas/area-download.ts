import type { ReadTile } from './read-tile';

/** Header on each stored tile giving its body's size, so an area's bytes add up without reading bodies. */
export const BYTES_HEADER = 'x-trapline-bytes';

export type DownloadState = 'running' | 'paused' | 'finished' | 'cancelled';
export type DownloadProgress = {
  state: DownloadState;
  total: number;
  /** Tiles stored (downloaded now, or already there when only missing tiles are fetched). */
  done: number;
  failed: number;
  bytes: number;
  /** Why the download stopped by itself (storage full), for the screen to say. */
  problem: string | null;
};

/** Tiles asked for at once: a tile server is shared by everyone, and 4 keep a tablet busy. */
export const CONCURRENCY = 4;

/**
 * Downloads tile URLs into a cache with bounded concurrency; pause, resume, cancel, and retry of
 * the tiles that failed. Each tile is stored as a plain 200 response (body, content type and
 * its size): no Date or Vary headers from the tile server, so neither a freshness check nor the
 * request's headers can keep the map from finding it.
 */
export class AreaDownload {
  private pending: string[];
  private failedUrls: string[] = [];
  private done = 0;
  private bytes = 0;
  private state: DownloadState = 'paused';
  private problem: string | null = null;
  private wake: (() => void) | null = null;
  private resumed: Promise<void> = Promise.resolve();
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;

  constructor(
    urls: string[],
    private readonly cache: Cache,
    private readonly onProgress: (p: DownloadProgress) => void,
    /** Keep tiles already stored (continuing an area) instead of fetching them again (refresh). */
    private readonly onlyMissing: boolean,
    /** Where the tiles come from: the tile server or the agency's archive (tileReader). */
    private readonly read: ReadTile,
  ) {
    // Taken from the end: reversed so the lowest zoom, the overview, comes first.
    this.pending = [...urls].reverse();
  }

  get progress(): DownloadProgress {
    return {
      state: this.state,
      total: this.done + this.failedUrls.length + this.pending.length + this.inFlight,
      done: this.done,
      failed: this.failedUrls.length,
      bytes: this.bytes,
      problem: this.problem,
    };
  }
  private inFlight = 0;

  /** Runs until every tile is stored or failed, or the download is cancelled. */
  start(): Promise<void> {
    this.state = 'running';
    this.problem = null;
    // Workers a pause left waiting go on.
    this.wake?.();
    this.emit();
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  pause(): void {
    if (this.state !== 'running') return;
    this.state = 'paused';
    this.resumed = new Promise((resolve) => (this.wake = resolve));
    this.emit();
  }

  resume(): void {
    if (this.state !== 'paused') return;
    this.state = 'running';
    this.problem = null;
    this.wake?.();
    this.emit();
  }

  /** Stops at once: tiles on their way are abandoned. */
  cancel(): void {
    this.state = 'cancelled';
    this.abort.abort();
    this.wake?.();
    this.emit();
  }

  /** Resolves once no tile is on its way any more (after a cancel, nothing is written later). */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** Puts the failed tiles back in the queue and runs again. */
  retryFailed(): Promise<void> {
    this.pending.push(...this.failedUrls);
    this.failedUrls = [];
    return this.start();
  }

  private emit(): void {
    this.onProgress(this.progress);
  }

  private async run(): Promise<void> {
    const worker = async () => {
      while (this.state !== 'cancelled') {
        if (this.state === 'paused') {
          await this.resumed;
          continue;
        }
        const url = this.pending.pop();
        if (url === undefined) return;
        this.inFlight++;
        try {
          await this.fetchOne(url);
        } finally {
          this.inFlight--;
        }
        this.emit();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    if (this.state === 'running') {
      this.state = 'finished';
      this.emit();
    }
  }

  private async fetchOne(url: string): Promise<void> {
    try {
      if (this.onlyMissing) {
        const stored = await this.cache.match(url);
        if (stored) {
          this.bytes += Number(stored.headers.get(BYTES_HEADER) ?? 0);
          this.done++;
          return;
        }
      }
      // A refresh revalidates with the server; a new area may take tiles from the HTTP cache.
      const body = await this.read(url, this.abort.signal, !this.onlyMissing);
      if (this.state === 'cancelled') return;
      if (!body) {
        // The archive has no map here: nothing to save, and nothing missing either.
        this.done++;
        return;
      }
      await this.cache.put(
        url,
        new Response(body, {
          headers: {
            'content-type': body.type || 'image/png',
            [BYTES_HEADER]: String(body.size),
          },
        }),
      );
      this.bytes += body.size;
      this.done++;
    } catch (err) {
      if (this.state === 'cancelled') return;
      this.failedUrls.push(url);
      if ((err as Error).name === 'QuotaExceededError') {
        // Every further tile would fail the same way: stop and say so.
        this.problem = 'Storage is full: delete a saved area or choose a smaller one.';
        this.pause();
      }
    }
  }
}
