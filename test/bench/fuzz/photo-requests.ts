import { randomUUID } from 'node:crypto';
import { HOSTILE_NAMES, hostileValue } from './hostile-values';
import type { SeededRandom } from './seeded-random';

/** A request to the photo routes (contract §13), before the BFF's headers are added. */
export type PhotoRequest = {
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
};

const b64 = (v: unknown) => Buffer.from(String(v), 'utf8').toString('base64');

let turn = 0;

/**
 * One request to /api/uploads (tus) or /api/attachments, the routes in turn so a short run
 * reaches each: creations with good or damaged metadata and lengths (a PDF, 60 MB, a record of
 * no one, hostile values), offsets and appends to unknown or guessed uploads, lists and reads
 * of guessed ids. `record` is a live record of the actor's agency when the fuzz knows one.
 */
export function photoRequest(
  rng: SeededRandom,
  hostile: boolean,
  record: number | undefined,
): PhotoRequest {
  const tus = { 'tus-resumable': hostile && rng.chance(0.2) ? '0.2.2' : '1.0.0' };
  const guessedUpload = rng.chance(0.5) ? randomUUID() : String(hostileValue(rng)).slice(0, 40);
  const uploadPath = `/api/uploads/${encodeURIComponent(guessedUpload)}`;
  const entity = rng.pick(['site', 'collection', 'pool'] as const);
  const id = record ?? rng.int(1, 200);
  switch (turn++ % 6) {
    case 0: {
      const meta: Record<string, unknown> = {
        entity,
        record: id,
        filename: 'trap.jpg',
        content_type: 'image/jpeg',
        taken_at: '2026-07-14T06:30:00.000Z',
        photo_id: randomUUID(),
      };
      let length: unknown = rng.int(12, 5000);
      if (hostile) {
        rng.weighted<() => void>([
          [2, () => (meta.content_type = 'application/pdf')],
          [2, () => (length = 60 * 1024 * 1024)],
          [2, () => (length = hostileValue(rng))],
          [2, () => (meta[rng.pick(Object.keys(meta))] = hostileValue(rng))],
          [1, () => (meta[String(rng.pick(HOSTILE_NAMES))] = 'x')],
          [1, () => (meta.record = 2_147_483_648)],
        ])();
      }
      const metadata = Object.entries(meta)
        .map(([k, v]) => `${k} ${b64(v)}`)
        .join(',');
      return {
        route: 'POST /api/uploads',
        method: 'POST',
        path: '/api/uploads',
        headers: { ...tus, 'upload-length': String(length), 'upload-metadata': metadata },
      };
    }
    case 1:
      return {
        route: 'PATCH /api/uploads/:id',
        method: 'PATCH',
        path: uploadPath,
        headers: {
          ...tus,
          'upload-offset': hostile ? String(hostileValue(rng)) : '0',
          'content-type':
            hostile && rng.chance(0.3) ? 'application/json' : 'application/offset+octet-stream',
        },
        body: hostile ? '%PDF-1.7 not a photo' : 'ÿØÿà photo bytes',
      };
    case 2:
      return {
        route: 'DELETE /api/uploads/:id',
        method: 'DELETE',
        path: uploadPath,
        headers: tus,
      };
    case 3: {
      const query = hostile
        ? `?entity=${encodeURIComponent(String(hostileValue(rng)))}&record=${encodeURIComponent(String(hostileValue(rng)))}`
        : `?entity=${entity}&record=${id}`;
      return {
        route: 'GET /api/attachments',
        method: 'GET',
        path: `/api/attachments${query}`,
        headers: {},
      };
    }
    case 4:
    case 5: {
      const guess = hostile
        ? encodeURIComponent(String(hostileValue(rng)))
        : String(rng.int(1, 60));
      const del = turn % 6 === 0;
      return {
        route: `${del ? 'DELETE' : 'GET'} /api/attachments/:id`,
        method: del ? 'DELETE' : 'GET',
        path: `/api/attachments/${guess}`,
        headers: {},
      };
    }
  }
  throw new Error('unreachable');
}
