/**
 * The photo upload queue against the real BFF and records service (tus over real HTTP, PGlite):
 * it waits for its record's server id, never holds the records' outbox, resumes a cut upload at
 * the server's offset, parks a refusal and goes on, and drops a week-old sent photo's full size.
 */
import { describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import type { PhotoRow } from '../../../src/client/db/photo-rows';
import { createPhotoUploader, KEEP_FULL_SIZE_MS } from '../../../src/client/sync/photo-uploads';
import { queueCreate } from './helpers/outbox-factory';
import { siteBody, tarsalis, trapNight } from './helpers/record-bodies';
import { tabletsOnStack } from './helpers/tablets-on-stack';

const { world, tablet } = tabletsOnStack('photos');
const today = new Date().toISOString().slice(0, 10);
let code = 830_000;

/** A new collection at a new site, queued as the app saves them. */
async function queueCollection(db: TraplineDb) {
  code += 1;
  const site = await queueCreate(db, 'site', siteBody(code, `Photo site ${code}`));
  return queueCreate(
    db,
    'collection',
    { ...trapNight(today), arthropods: [tarsalis(7)] },
    site.localId,
  );
}

/** JPEG-headed bytes that differ from place to place (a cut in the wrong place would show). */
function jpegBytes(size: number, seed: number): Uint8Array {
  const b = new Uint8Array(size);
  for (let i = 0; i < size; i++) b[i] = (i * 13 + seed + (i >> 9)) & 0xff;
  b.set([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
  return b;
}

async function addPhoto(
  db: TraplineDb,
  recordLocalId: string,
  bytes: Uint8Array,
  over: Partial<PhotoRow> = {},
): Promise<PhotoRow> {
  const photo: PhotoRow = {
    id: crypto.randomUUID(),
    entity: 'collection',
    recordLocalId,
    filename: `photo-${bytes.length}.jpg`,
    contentType: 'image/jpeg',
    takenAt: new Date().toISOString(),
    width: 2048,
    height: 1536,
    bytes: bytes.length,
    blob: new Blob([bytes as BlobPart], { type: 'image/jpeg' }),
    thumb: new Blob([bytes.slice(0, 100) as BlobPart], { type: 'image/jpeg' }),
    createdAt: Date.now(),
    state: 'waiting',
    uploadUrl: null,
    attempts: 0,
    nextAttemptAt: 0,
    problem: null,
    sentAt: null,
    ...over,
  };
  await db.photos.add(photo);
  return photo;
}

function uploaderFor(db: TraplineDb) {
  return createPhotoUploader(db, {
    endpoint: `${world.stack.appUrl}/api/uploads`,
    headers: () => ({ ...world.headers, 'X-CSRF': '1' }),
    readSource: async (blob) => Buffer.from(await blob.arrayBuffer()),
    intervalMs: 60_000,
    random: () => 0,
  });
}

async function stored(collectionId: number) {
  const headers = { ...world.headers, 'X-CSRF': '1' };
  const list = await fetch(
    `${world.stack.appUrl}/api/attachments?entity=collection&record=${collectionId}`,
    { headers },
  );
  const rows = ((await list.json()) as { rows: Array<{ id: number; photo_id: string }> }).rows;
  return Promise.all(
    rows.map(async (r) => {
      const res = await fetch(`${world.stack.appUrl}/api/attachments/${r.id}`, { headers });
      return { photoId: r.photo_id, bytes: new Uint8Array(await res.arrayBuffer()) };
    }),
  );
}

async function syncedCollection(db: TraplineDb, engine: ReturnType<typeof tablet>['engine']) {
  const c = await queueCollection(db);
  engine.requestSync('test');
  await engine.settled();
  const row = await db.collections.get(c.localId);
  expect(row?.serverId).toBeTruthy();
  return { localId: c.localId, serverId: row!.serverId! };
}

describe('photo upload queue', () => {
  it("waits for its record's server id, never holding the records back, then sends the same bytes", async () => {
    const { db, engine } = tablet();
    const c = await queueCollection(db);
    const bytes = jpegBytes(800_000, 1);
    const photo = await addPhoto(db, c.localId, bytes);
    const uploader = uploaderFor(db);
    uploader.start();
    try {
      await uploader.settled();
      expect(uploader.getStatus()).toMatchObject({ pending: 1, waitingForRecord: 1 });
      expect((await db.photos.get(photo.id))?.state).toBe('waiting');

      // The records' queue goes first and on its own: the collection is sent with a photo waiting.
      engine.requestSync('test');
      await engine.settled();
      const serverId = (await db.collections.get(c.localId))!.serverId!;
      expect(serverId).toBeGreaterThan(0);

      uploader.kick();
      await uploader.settled();
      expect((await db.photos.get(photo.id))?.state).toBe('sent');
      expect(uploader.getStatus()).toMatchObject({ pending: 0, parked: [] });
      const onServer = await stored(serverId);
      expect(onServer).toHaveLength(1);
      expect(onServer[0].photoId).toBe(photo.id);
      expect(Buffer.from(onServer[0].bytes).equals(Buffer.from(bytes))).toBe(true);
    } finally {
      uploader.stop();
    }
  });

  it('resumes an upload cut half-way from where the server stands, storing it once', async () => {
    const { db, engine } = tablet();
    const c = await syncedCollection(db, engine);
    const bytes = jpegBytes(1_600_000, 2);
    const photo = await addPhoto(db, c.localId, bytes);

    // The tablet loses the page (or signal) once the server holds part of the photo.
    const first = uploaderFor(db);
    const cut = new Promise<void>((resolve) => {
      const off = first.subscribe(() => {
        const now = first.getStatus().current;
        if (now && now.sent >= 512 * 1024) {
          off();
          resolve();
        }
      });
    });
    first.start();
    await cut;
    first.stop();
    await first.settled();
    const half = await db.photos.get(photo.id);
    expect(half?.state).toBe('sending');
    expect(half?.uploadUrl).toMatch(/\/api\/uploads\//);
    const head = await fetch(`${world.stack.appUrl}${new URL(half!.uploadUrl!).pathname}`, {
      method: 'HEAD',
      headers: { ...world.headers, 'X-CSRF': '1', 'Tus-Resumable': '1.0.0' },
    });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(bytes.length);

    const second = uploaderFor(db);
    second.start();
    try {
      await second.settled();
      expect((await db.photos.get(photo.id))?.state).toBe('sent');
      const onServer = await stored(c.serverId);
      expect(onServer).toHaveLength(1);
      expect(Buffer.from(onServer[0].bytes).equals(Buffer.from(bytes))).toBe(true);
    } finally {
      second.stop();
    }
  });

  it("parks a photo the server refuses, with the server's words, and sends the next", async () => {
    const { db, engine } = tablet();
    const c = await syncedCollection(db, engine);
    const pdf = new TextEncoder().encode('%PDF-1.7\n' + 'x'.repeat(5000));
    const bad = await addPhoto(db, c.localId, pdf, { createdAt: 1 });
    const good = await addPhoto(db, c.localId, jpegBytes(30_000, 3), { createdAt: 2 });
    const uploader = uploaderFor(db);
    uploader.start();
    try {
      await uploader.settled();
      const parked = await db.photos.get(bad.id);
      expect(parked?.state).toBe('parked');
      expect(parked?.problem).toMatch(/not the JPEG image it says it is/);
      expect((await db.photos.get(good.id))?.state).toBe('sent');
      expect(uploader.getStatus().parked).toEqual([
        { id: bad.id, filename: bad.filename, message: parked!.problem },
      ]);
      // Parked stays parked: not sent again by itself.
      uploader.kick();
      await uploader.settled();
      expect((await stored(c.serverId)).map((s) => s.photoId)).toEqual([good.id]);
    } finally {
      uploader.stop();
    }
  });

  it('holds on to no photo it sent: no abort hook per photo is left on the queue', async () => {
    // Each hook kept the photo's upload, bytes included, for as long as the queue ran (a day
    // of field work's photos in the tablet's memory); Node counts them on the queue's signal.
    const { db, engine } = tablet();
    const c = await syncedCollection(db, engine);
    for (let i = 0; i < 12; i += 1) {
      await addPhoto(db, c.localId, jpegBytes(2_000, 20 + i), { createdAt: i });
    }
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const uploader = uploaderFor(db);
    uploader.start();
    try {
      await uploader.settled();
      expect(await stored(c.serverId)).toHaveLength(12);
      await new Promise((r) => setTimeout(r, 10)); // warnings are emitted on a later tick
      expect(warnings.filter((w) => w.includes('MaxListenersExceeded'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      uploader.stop();
    }
  });

  it("drops a sent photo's full size after a week, keeping its thumbnail", async () => {
    const { db } = tablet();
    const weekOld = Date.now() - KEEP_FULL_SIZE_MS - 60_000;
    const old = await addPhoto(db, 'x', jpegBytes(1000, 4), { state: 'sent', sentAt: weekOld });
    const recent = await addPhoto(db, 'x', jpegBytes(1000, 5), {
      state: 'sent',
      sentAt: Date.now() - 60_000,
    });
    const uploader = uploaderFor(db);
    uploader.start();
    try {
      await uploader.settled();
      const kept = await db.photos.get(old.id);
      expect(kept?.blob).toBeNull();
      expect(kept?.thumb).toBeInstanceOf(Blob);
      expect((await db.photos.get(recent.id))?.blob).toBeInstanceOf(Blob);
    } finally {
      uploader.stop();
    }
  });
});
