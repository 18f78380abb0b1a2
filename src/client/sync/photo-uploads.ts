import { ENTITY_TABLE, type TraplineDb } from '../db/database';
import type { PhotoRow } from '../db/photo-rows';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
import { PhotoUploadError, sendPhoto, type SendPhotoOptions } from './photo-upload-sender';

/** A sent photo's full-size blob is kept this long on the tablet (its thumbnail for good). */
export const KEEP_FULL_SIZE_MS = 7 * 24 * 60 * 60_000;

/** What the sync bar shows of the photo queue. */
export type PhotoUploadStatus = {
  /** Photos not yet on the server (waiting for their record, or being sent). */
  pending: number;
  /** Of those, the ones whose record has no server id yet. */
  waitingForRecord: number;
  /** The photo being sent now: bytes the server has of it, of its size. */
  current: { id: string; sent: number; total: number } | null;
  parked: Array<{ id: string; filename: string; message: string }>;
};

export type PhotoUploaderOptions = {
  /** The BFF's tus endpoint (absolute under Node). */
  endpoint?: string;
  /** Headers of every upload request (X-CSRF, owner; cookie under Node). */
  headers?: () => Record<string, string>;
  now?: () => number;
  backoff?: BackoffOptions;
  random?: () => number;
  /** How often the queue looks again by itself (records get server ids, backoffs end). */
  intervalMs?: number;
  /** The BFF asked for the password (401): the queue waits until `kick` after sign-in. */
  onReauth?: () => void;
  readSource?: SendPhotoOptions['readSource'];
};

export type PhotoUploader = {
  start(): void;
  stop(): void;
  /** Look at the queue now (a photo added, a record synced, the network back). */
  kick(): void;
  /** Resolves once no run is under way (tests). */
  settled(): Promise<void>;
  getStatus(): PhotoUploadStatus;
  subscribe(listener: () => void): () => void;
};

const EMPTY: PhotoUploadStatus = { pending: 0, waitingForRecord: 0, current: null, parked: [] };

/** Statuses that mean "the server will never take this as it is": the photo is parked. */
const isRefusal = (status: number | null) =>
  status !== null && status >= 400 && status < 500 && ![401, 408, 409, 423, 429].includes(status);

let active: PhotoUploader | null = null;
const pageListeners = new Set<() => void>();

/** Asks the page's photo queue to look now (after a photo is added). */
export function kickPhotoUploads(): void {
  active?.kick();
}

/** The status of the page's photo queue (the signed-in user's), for the sync bar. */
export function pagePhotoUploadStatus(): PhotoUploadStatus {
  return active?.getStatus() ?? EMPTY;
}

/** Calls `listener` whenever the page's photo queue status changes; returns the unsubscribe. */
export function subscribePagePhotoUploads(listener: () => void): () => void {
  pageListeners.add(listener);
  return () => pageListeners.delete(listener);
}

/**
 * The photo upload queue (ARCHITECTURE "Photos"): separate from the records' outbox, so a photo
 * on a bad signal never holds a trap count back. Rules:
 * 1. A photo is sent only once its record has a server id; until then it waits (not an error).
 * 2. One photo at a time, oldest first; one run at a time in this page.
 * 3. A cut resumes at the server's offset (tus); network, 5xx, 409, 429 → backoff and retry.
 * 4. A refusal (4xx) parks the photo with the server's words; 401 pauses the queue.
 * 5. A sent photo's full-size blob is dropped after KEEP_FULL_SIZE_MS; its thumbnail stays.
 */
export function createPhotoUploader(db: TraplineDb, options: PhotoUploaderOptions = {}) {
  const now = options.now ?? Date.now;
  const endpoint = options.endpoint ?? '/api/uploads';
  const listeners = new Set<() => void>();
  let status = EMPTY;
  let running: Promise<void> | null = null;
  let again = false;
  let paused = false;
  let stopped = false;
  let timer: ReturnType<typeof setInterval> | null = null;
  const abort = new AbortController();

  const publish = (next: PhotoUploadStatus) => {
    status = next;
    for (const l of listeners) l();
    if (active === uploader) for (const l of pageListeners) l();
  };

  async function hasServerId(photo: PhotoRow): Promise<number | null> {
    const record = (await db.table(ENTITY_TABLE[photo.entity]).get(photo.recordLocalId)) as
      { serverId: number | null } | undefined;
    return record?.serverId ?? null;
  }

  async function refreshStatus(current: PhotoUploadStatus['current'] = null) {
    const open = await db.photos.where('state').anyOf('waiting', 'sending').toArray();
    const parked = await db.photos.where('state').equals('parked').toArray();
    let waitingForRecord = 0;
    for (const p of open) if ((await hasServerId(p)) === null) waitingForRecord += 1;
    publish({
      pending: open.length,
      waitingForRecord,
      current,
      parked: parked.map((p) => ({ id: p.id, filename: p.filename, message: p.problem ?? '' })),
    });
  }

  async function dropOldFullSize() {
    const before = now() - KEEP_FULL_SIZE_MS;
    await db.photos
      .where('state')
      .equals('sent')
      .filter((p) => p.blob !== null && p.sentAt !== null && p.sentAt < before)
      .modify({ blob: null });
  }

  async function sendOne(photo: PhotoRow, record: number): Promise<'next' | 'pause'> {
    await db.photos.update(photo.id, { state: 'sending' });
    // A signal of this send's own, unhooked from the queue's when the send ends: what the sender
    // hangs on it (the upload, with the photo's bytes) goes with it, not kept by the queue's
    // signal for as long as the queue runs.
    const send = new AbortController();
    const stop = () => send.abort();
    abort.signal.addEventListener('abort', stop, { once: true });
    try {
      await sendPhoto(photo, {
        endpoint,
        headers: options.headers?.() ?? {},
        uploadUrl: photo.uploadUrl,
        record,
        signal: send.signal,
        readSource: options.readSource,
        onUploadUrl: (url) => void db.photos.update(photo.id, { uploadUrl: url }),
        onProgress: (sent, total) => publish({ ...status, current: { id: photo.id, sent, total } }),
      });
      await db.photos.update(photo.id, {
        state: 'sent',
        sentAt: now(),
        problem: null,
        attempts: photo.attempts + 1,
      });
      return 'next';
    } catch (err) {
      const e = err instanceof PhotoUploadError ? err : new PhotoUploadError(null, String(err));
      if (stopped) return 'pause';
      if (e.status === 401) {
        paused = true;
        options.onReauth?.();
        return 'pause';
      }
      if (isRefusal(e.status)) {
        await db.photos.update(photo.id, { state: 'parked', problem: e.message });
        return 'next';
      }
      const attempts = photo.attempts + 1;
      const delay = backoffDelay(
        attempts,
        options.backoff ?? DEFAULT_BACKOFF,
        options.random,
        e.retryAfterMs,
      );
      await db.photos.update(photo.id, { attempts, nextAttemptAt: now() + delay });
      // No connection: the next photo would fail the same way.
      return e.status === null ? 'pause' : 'next';
    } finally {
      abort.signal.removeEventListener('abort', stop);
    }
  }

  async function drain() {
    await dropOldFullSize();
    const open = await db.photos.where('state').anyOf('waiting', 'sending').sortBy('createdAt');
    for (const photo of open) {
      if (stopped || paused) break;
      if (photo.nextAttemptAt > now()) continue;
      const record = await hasServerId(photo);
      if (record === null) continue; // Rule 1: waits for its record.
      if ((await sendOne(photo, record)) === 'pause') break;
      await refreshStatus();
    }
    await refreshStatus();
  }

  function kick() {
    if (stopped) return;
    paused = false;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await drain().catch(() => undefined);
      } while (again && !stopped && !paused);
    })().finally(() => {
      running = null;
    });
  }

  const onOnline = () => kick();
  const uploader: PhotoUploader = {
    start() {
      active = uploader;
      if (typeof window !== 'undefined') window.addEventListener('online', onOnline);
      timer = setInterval(kick, options.intervalMs ?? 15_000);
      kick();
    },
    stop() {
      stopped = true;
      abort.abort();
      if (active === uploader) {
        active = null;
        for (const l of pageListeners) l();
      }
      if (typeof window !== 'undefined') window.removeEventListener('online', onOnline);
      if (timer) clearInterval(timer);
    },
    kick,
    async settled() {
      while (running) await running;
    },
    getStatus: () => status,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return uploader;
}
