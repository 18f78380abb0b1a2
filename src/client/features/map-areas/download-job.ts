import { useSyncExternalStore } from 'react';
import { AreaDownload, type DownloadProgress } from './area-download';
import { areaTileUrls } from './area-tiles';
import { deleteArea } from './delete-area';
import { tileReader } from './read-tile';
import { AREAS_CACHE, listAreas, putArea, type SavedArea } from './saved-areas';

/** new: a fresh area; continue: fetch the tiles a partial area lacks; refresh: fetch them all again. */
export type JobKind = 'new' | 'continue' | 'refresh';
export type Job = {
  area: SavedArea;
  kind: JobKind;
  progress: DownloadProgress;
  download: AreaDownload;
};

/**
 * One download at a time for the whole page, kept outside the screen: leaving Offline map areas
 * does not stop a download, and coming back shows it.
 */
let current: Job | null = null;
const listeners = new Set<() => void>();

function set(job: Job | null): void {
  current = job;
  for (const l of listeners) l();
}

export function useDownloadJob(): Job | null {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    () => current,
  );
}

/** Records the area as the download left it: its bytes, and complete only with every tile. */
function record(job: Job): void {
  const p = job.download.progress;
  if (p.state === 'cancelled') return;
  // Deleted meanwhile (on this screen or in another tab): it stays deleted.
  if (!listAreas().some((a) => a.id === job.area.id)) return;
  const complete = p.state === 'finished' && p.failed === 0;
  // A refresh that fails some tiles still has the earlier copies of them: it stays complete.
  const stillComplete = job.kind === 'refresh' && job.area.complete;
  putArea({
    ...job.area,
    // A refresh or continue stopped part-way has counted only the tiles it went through; the
    // others are still stored: the area weighs at least what it did.
    bytes: job.kind === 'new' || complete ? p.bytes : Math.max(job.area.bytes, p.bytes),
    complete: complete || stillComplete,
    savedAt: p.state === 'finished' ? new Date().toISOString() : job.area.savedAt,
  });
}

async function run(job: Job, step: () => Promise<void>): Promise<void> {
  await step();
  // `current` is replaced on every progress report: the download names the job.
  if (current?.download === job.download) record(job);
}

/** Starts downloading an area's tiles (unless a download is under way). */
export async function startJob(area: SavedArea, kind: JobKind): Promise<void> {
  if (current && current.progress.state !== 'finished' && current.progress.state !== 'cancelled')
    return;
  const cache = await caches.open(AREAS_CACHE);
  const download = new AreaDownload(
    areaTileUrls(area),
    cache,
    (progress) => {
      if (current?.download !== download) return;
      set({ ...current, progress });
      // Paused by itself (storage full): listed as it stands, as a pause by hand is.
      if (progress.state === 'paused' && progress.problem) record(current);
    },
    kind !== 'refresh',
    tileReader(area.tileUrl),
  );
  const job: Job = { area, kind, download, progress: download.progress };
  set(job);
  // Listed at once, as not complete: a page closed mid-way leaves an area to continue.
  if (kind === 'new') putArea({ ...area, complete: false });
  await run(job, () => download.start());
}

export function pauseJob(): void {
  if (!current) return;
  current.download.pause();
  record(current);
}

export function resumeJob(): void {
  current?.download.resume();
}

export async function retryFailedTiles(): Promise<void> {
  const job = current;
  if (job) await run(job, () => job.download.retryFailed());
}

/** Stops the download; a new area is deleted with its tiles, an existing one stays as it was. */
export async function cancelJob(): Promise<void> {
  const job = current;
  if (!job) return;
  job.download.cancel();
  await job.download.settled();
  if (job.kind === 'new') {
    const area = listAreas().find((a) => a.id === job.area.id);
    if (area) await deleteArea(area);
  }
  set(null);
}

/** Closes the finished download's panel. */
export function dismissJob(): void {
  if (current?.progress.state === 'finished') set(null);
}
