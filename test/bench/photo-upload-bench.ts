/**
 * A photo over one bar of signal (issue 39): a 3 MB JPEG sent by the app's own photo queue
 * (createPhotoUploader, tus-js-client) to the real BFF and records service (in this process, on
 * in-memory PGlite) through a TCP proxy that emulates 1.6 Mbit/s each way with 150 ms latency.
 * Run twice in the same process: once with the link cut (every socket destroyed) when half of
 * the photo has crossed it, then resumed by the queue; once uncut, as the reference. Prints the
 * bytes the tablet put on the wire toward the BFF, the stored size, their ratio, the time, and
 * checks the BFF holds the very bytes (SHA-256) of the photo.
 */
import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { TraplineDb } from '../../src/client/db/database';
import type { PhotoRow } from '../../src/client/db/photo-rows';
import { createPhotoUploader } from '../../src/client/sync/photo-uploads';
import {
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
} from '../../src/server/records/seed/lookup-data';
import { startDrainStack, type DrainStack } from './drain-stack';
import type { BenchRow } from './run';

const PASSWORD = 'bench-password-photo-upload';
const PHOTO_BYTES = 3_000_000;
const LINK_BITS_PER_S = 1_600_000;
const LINK_LATENCY_MS = 150;
/** The queue looks again this often after the cut (the app also kicks on `online`). */
const RETRY_MS = 250;

/**
 * The smallest JPEG (1x1, arithmetic-coded) that decoders accept: SOI, DQT, SOF9, DAC, SOS, EOI.
 * The photo is this with comment (COM) segments of pseudo-random bytes inserted after the SOI,
 * so it is a valid JPEG of the size asked that no compression can shrink.
 */
const TINY_JPEG = Buffer.from(
  '/9j/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8Q' +
    'EBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=',
  'base64',
);

export function photoJpeg(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  // The tiny JPEG's SOI first, then the COM segments, then the rest of it.
  const head = 2;
  TINY_JPEG.copy(out, 0, 0, head);
  let at = head;
  const tail = TINY_JPEG.length - head;
  let x = seed >>> 0 || 1;
  while (at < size - tail) {
    const room = size - tail - at;
    // A segment is FF FE + 2-byte length (which counts itself) + payload; at least 4 bytes.
    const len = Math.min(65_535, room - 2);
    if (len < 2) throw new Error('photo size leaves a gap smaller than a COM segment');
    const last = room - (len + 2);
    const segLen = last > 0 && last < 4 ? len - 4 : len;
    out[at] = 0xff;
    out[at + 1] = 0xfe;
    out.writeUInt16BE(segLen, at + 2);
    for (let i = at + 4; i < at + 2 + segLen; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out[i] = x & 0xff;
    }
    at += 2 + segLen;
  }
  TINY_JPEG.copy(out, at, head);
  return out;
}

/**
 * The compression bench's slow link (one queue per direction, each chunk delivered no faster
 * than `bitsPerS`, `latencyMs` after it was sent), counting the bytes that crossed it each way
 * and able to cut every connection once `cutAfterUp` bytes have crossed toward the BFF.
 */
async function startSlowLink(target: string, bitsPerS: number, latencyMs: number) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  // `written`: bytes the tablet wrote toward the BFF, with those still on the link at a cut.
  const counts = { up: 0, down: 0, written: 0, connections: 0, cuts: 0 };
  // One link each way, shared by every connection (tus-js-client may open a new one).
  const linkFreeAt = { up: 0, down: 0 };
  let cutAfterUp = Infinity;
  let onCut: (() => void) | null = null;
  const cutAll = () => {
    counts.cuts += 1;
    cutAfterUp = Infinity;
    for (const s of sockets) s.destroy();
    // What was still on the link is lost with its connection: the link is free again.
    linkFreeAt.up = linkFreeAt.down = performance.now();
    onCut?.();
  };
  const pace = (from: Socket, to: Socket, dir: 'up' | 'down') => {
    const queue: Array<{ chunk: Buffer; at: number }> = [];
    let timer: NodeJS.Timeout | null = null;
    const pump = () => {
      timer = null;
      while (queue.length > 0 && queue[0].at <= performance.now()) {
        const { chunk } = queue.shift()!;
        if (to.destroyed) continue;
        to.write(chunk);
        counts[dir] += chunk.length;
        if (dir === 'up' && counts.up >= cutAfterUp) {
          cutAll();
          return;
        }
      }
      if (queue.length > 0) timer = setTimeout(pump, queue[0].at - performance.now());
      else if (from.destroyed) to.destroy();
    };
    from.on('data', (chunk: Buffer) => {
      const now = performance.now();
      if (dir === 'up') counts.written += chunk.length;
      linkFreeAt[dir] = Math.max(now, linkFreeAt[dir]) + (chunk.length * 8 * 1000) / bitsPerS;
      queue.push({ chunk, at: linkFreeAt[dir] + latencyMs });
      timer ??= setTimeout(pump, queue[0].at - now);
    });
    from.on('close', () => {
      if (queue.length === 0) to.destroy();
    });
  };
  const server = createServer((client) => {
    counts.connections += 1;
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    pace(client, upstream, 'up');
    pace(upstream, client, 'down');
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    /** Cuts every connection once `bytes` more have crossed toward the BFF. */
    cutAfter(bytes: number, then: () => void) {
      cutAfterUp = counts.up + bytes;
      onCut = then;
    },
    reset() {
      counts.up = 0;
      counts.down = 0;
      counts.written = 0;
      counts.connections = 0;
      counts.cuts = 0;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

type Link = Awaited<ReturnType<typeof startSlowLink>>;

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A synced collection on the server and in the tablet's Dexie (its server id known). */
async function syncedCollection(stack: DrainStack, db: TraplineDb, code: number) {
  const site = await stack.post('/site', {
    code: String(code),
    name: `Photo bench site ${code}`,
    coordinate_precision: PRECISION_ID.gps,
    shape: { type: 'Point', coordinates: [-121.49, 38.58] },
  });
  const collection = await stack.post('/arthropod/collection', {
    site: site.id,
    collection_date: new Date().toISOString().slice(0, 10),
    num_trap: 1,
    trap: TRAP_ID.co2,
    trap_nights: 1,
    arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 7 }],
  });
  const localId = crypto.randomUUID();
  // The queue reads only the record's server id (rule 1); the rest of the row is not needed.
  await db.collections.add({ localId, serverId: collection.id } as never);
  return { localId, serverId: collection.id };
}

async function addPhoto(db: TraplineDb, recordLocalId: string, bytes: Buffer): Promise<PhotoRow> {
  const photo: PhotoRow = {
    id: crypto.randomUUID(),
    entity: 'collection',
    recordLocalId,
    filename: 'trap-3mb.jpg',
    contentType: 'image/jpeg',
    takenAt: new Date().toISOString(),
    width: 1,
    height: 1,
    bytes: bytes.length,
    blob: new Blob([bytes as BlobPart], { type: 'image/jpeg' }),
    thumb: new Blob([TINY_JPEG as BlobPart], { type: 'image/jpeg' }),
    createdAt: Date.now(),
    state: 'waiting',
    uploadUrl: null,
    attempts: 0,
    nextAttemptAt: 0,
    problem: null,
    sentAt: null,
  };
  await db.photos.add(photo);
  return photo;
}

/** The photo's bytes as the BFF serves them back (over loopback, not the slow link). */
async function storedBytes(stack: DrainStack, collectionId: number) {
  const headers = { ...stack.headers, 'X-CSRF': '1' };
  const list = await fetch(
    `${stack.bffUrl}/api/attachments?entity=collection&record=${collectionId}`,
    { headers },
  );
  if (!list.ok) throw new Error(`attachments list: ${list.status} ${await list.text()}`);
  const rows = ((await list.json()) as { rows: Array<{ id: number; photo_id: string }> }).rows;
  return Promise.all(
    rows.map(async (r) => {
      const res = await fetch(`${stack.bffUrl}/api/attachments/${r.id}`, { headers });
      return { photoId: r.photo_id, bytes: new Uint8Array(await res.arrayBuffer()) };
    }),
  );
}

type Run = {
  ms: number;
  up: number;
  written: number;
  down: number;
  connections: number;
  cuts: number;
  stored: number;
  same: boolean;
  attempts: number;
};

/** Sends one photo through the link with the app's queue; `cutAt`: bytes up before the cut. */
async function sendThrough(
  stack: DrainStack,
  link: Link,
  bytes: Buffer,
  code: number,
  cutAt: number | null,
): Promise<Run> {
  const db = new TraplineDb(`trapline-photo-bench-${crypto.randomUUID()}`);
  try {
    const c = await syncedCollection(stack, db, code);
    const photo = await addPhoto(db, c.localId, bytes);
    const uploader = createPhotoUploader(db, {
      endpoint: `${link.url}/api/uploads`,
      // The link is the tablet's origin (a same-origin check compares Origin with Host).
      headers: () => ({ ...stack.headers, Origin: link.url, 'X-CSRF': '1' }),
      readSource: async (blob) => Buffer.from(await blob.arrayBuffer()),
      intervalMs: RETRY_MS,
      backoff: { baseMs: RETRY_MS, capMs: RETRY_MS },
      random: () => 0,
    });
    link.reset();
    if (cutAt !== null) link.cutAfter(cutAt, () => undefined);
    const started = performance.now();
    const done = new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error('photo not sent in 120 s')), 120_000);
      const poll = setInterval(() => {
        void db.photos.get(photo.id).then((p) => {
          if (p?.state === 'sent' || p?.state === 'parked') {
            clearInterval(poll);
            clearTimeout(deadline);
            if (p.state === 'parked') reject(new Error(`parked: ${p.problem}`));
            else resolve();
          }
        });
      }, 20);
    });
    uploader.start();
    try {
      await done;
    } finally {
      uploader.stop();
      await uploader.settled();
    }
    const ms = performance.now() - started;
    const row = (await db.photos.get(photo.id))!;
    const onServer = await storedBytes(stack, c.serverId);
    const mine = onServer.filter((s) => s.photoId === photo.id);
    return {
      ms,
      up: link.counts.up,
      written: link.counts.written,
      down: link.counts.down,
      connections: link.counts.connections,
      cuts: link.counts.cuts,
      stored: mine.reduce((n, s) => n + s.bytes.length, 0),
      same: onServer.length === 1 && mine.length === 1 && sha256(mine[0].bytes) === sha256(bytes),
      attempts: row.attempts,
    };
  } finally {
    db.close();
    await db.delete();
  }
}

export async function benchPhotoUpload(): Promise<BenchRow[]> {
  const stack = await startDrainStack(PASSWORD);
  const link = await startSlowLink(stack.bffUrl, LINK_BITS_PER_S, LINK_LATENCY_MS);
  try {
    const bytes = photoJpeg(PHOTO_BYTES, 39);
    // Warm-up on loopback speed is not the point; a small photo through the link pays for JIT.
    await sendThrough(stack, link, photoJpeg(40_000, 1), 790_001, null);
    const reference = await sendThrough(stack, link, bytes, 790_002, null);
    const cut = await sendThrough(stack, link, bytes, 790_003, Math.round(PHOTO_BYTES / 2));
    if (!reference.same || !cut.same) {
      throw new Error(
        `the BFF does not hold the photo's bytes (reference ${reference.same}, cut ${cut.same})`,
      );
    }
    if (cut.cuts !== 1) throw new Error(`expected one cut, saw ${cut.cuts}`);
    const note = (r: Run) =>
      `up ${r.up} B (written ${r.written} B), down ${r.down} B, ${r.connections} new connections, ` +
      `${r.attempts} attempts, sha-256 equal`;
    return [
      { name: 'photo 3 MB, 1 cut: bytes up', value: cut.up / 1e6, unit: 'MB', note: note(cut) },
      { name: 'photo 3 MB, 1 cut: stored', value: cut.stored / 1e6, unit: 'MB' },
      {
        name: 'photo 3 MB, 1 cut: up / stored',
        value: cut.up / cut.stored,
        unit: 'x',
        goal: { atMost: 1.1 },
      },
      {
        name: 'photo 3 MB, 1 cut: written / stored',
        value: cut.written / cut.stored,
        unit: 'x',
        note: 'with the bytes on the link when it was cut (lost with the connection)',
      },
      { name: 'photo 3 MB, 1 cut: time', value: cut.ms / 1000, unit: 's' },
      {
        name: 'photo 3 MB, no cut: bytes up',
        value: reference.up / 1e6,
        unit: 'MB',
        note: note(reference),
      },
      {
        name: 'photo 3 MB, no cut: up / stored',
        value: reference.up / reference.stored,
        unit: 'x',
        goal: { atMost: 1.1 },
      },
      { name: 'photo 3 MB, no cut: time', value: reference.ms / 1000, unit: 's' },
      {
        name: 'photo 3 MB: cut time / no cut',
        value: cut.ms / reference.ms,
        unit: 'x',
        note: `link ${LINK_BITS_PER_S / 1e6} Mbit/s, ${LINK_LATENCY_MS} ms; photo at wire speed ${((PHOTO_BYTES * 8) / LINK_BITS_PER_S).toFixed(1)} s`,
      },
    ];
  } finally {
    await link.close();
    await stack.close();
  }
}
