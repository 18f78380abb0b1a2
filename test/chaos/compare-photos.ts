import { ENTITY_TABLE } from '../../src/client/db/database';
import { PHOTO_ENTITIES, type PhotoEntity } from '../../src/shared/schemas/attachment';
import { sha256, type TakenPhoto } from './photo-queue';
import type { Tablet } from './tablet';

export type PhotoCounts = {
  /** Photos the user took. */
  photos: number;
  /** Their bytes, summed. */
  bytes: number;
  /** Of them, those taken before their record had a server id (the upload waited for it). */
  waited: number;
  /** A photo not on the BFF though the tablet no longer offers to send it (sent, or gone). */
  lost: number;
  /** Copies of a photo on the BFF beyond the one it should have. */
  duplicated: number;
  /**
   * A photo on the BFF under another record than its own record's server id, or whose bytes
   * differ from what was taken (SHA-256); or a stored photo that nobody took.
   */
  wrong: number;
  /** Photos the queue still holds (waiting, sending, parked) once it settled with the faults off. */
  stuck: number;
  details: string[];
};

type Listed = { id: number; entity: PhotoEntity; record: number; photo_id: string; bytes: number };
type ReadBff = (pathAndQuery: string) => Promise<Response>;

const isPhotoEntity = (e: string): e is PhotoEntity =>
  (PHOTO_ENTITIES as readonly string[]).includes(e);

/**
 * The photos' verdict: every photo taken is on the BFF exactly once, under its record's server
 * id, with the bytes taken. Reads the BFF's attachment lists for every server id the run's
 * records were ever given (so a photo under a wrong or duplicate record is found too), then
 * each listed photo's bytes.
 */
export async function comparePhotos(options: {
  tablet: Tablet;
  taken: TakenPhoto[];
  read: ReadBff;
}): Promise<PhotoCounts> {
  const { tablet, taken, read } = options;
  const counts: PhotoCounts = {
    photos: taken.length,
    bytes: taken.reduce((s, p) => s + p.bytes, 0),
    waited: taken.filter((p) => p.waited).length,
    lost: 0,
    duplicated: 0,
    wrong: 0,
    stuck: 0,
    details: [],
  };
  if (taken.length === 0) return counts;

  const records = new Set<string>();
  for (const a of tablet.log.acks) {
    if (isPhotoEntity(a.entity)) records.add(`${a.entity}:${a.serverId}`);
  }
  const listed: Array<Listed & { sha256: string }> = [];
  for (const r of records) {
    const [entity, record] = r.split(':');
    const res = await read(`/api/attachments?entity=${entity}&record=${record}`);
    if (!res.ok) throw new Error(`listing photos of ${r} answered ${res.status}`);
    for (const row of ((await res.json()) as { rows: Listed[] }).rows) {
      const bytes = await read(`/api/attachments/${row.id}`);
      if (!bytes.ok) throw new Error(`photo ${row.id} answered ${bytes.status}`);
      listed.push({ ...row, sha256: sha256(new Uint8Array(await bytes.arrayBuffer())) });
    }
  }

  const byPhoto = new Map<string, typeof listed>();
  for (const row of listed) byPhoto.set(row.photo_id, [...(byPhoto.get(row.photo_id) ?? []), row]);
  for (const photo of taken) {
    const rows = byPhoto.get(photo.id) ?? [];
    byPhoto.delete(photo.id);
    const name = `photo ${photo.id.slice(0, 8)} (${photo.look}, ${photo.bytes} B) of ${photo.key}`;
    const onTablet = await tablet.db.photos.get(photo.id);
    const record = (await tablet.db.table(ENTITY_TABLE[photo.entity]).get(photo.recordLocalId)) as
      { serverId: number | null } | undefined;
    if (onTablet && onTablet.state !== 'sent') {
      counts.stuck += 1;
      counts.details.push(
        `${name}: still ${onTablet.state} on the tablet` +
          (onTablet.problem ? ` ("${onTablet.problem}")` : '') +
          (record?.serverId == null ? ', its record has no server id' : ''),
      );
      if (rows.length === 0) continue;
    }
    if (rows.length === 0) {
      counts.lost += 1;
      counts.details.push(
        `${name}: not on the server, yet ${onTablet ? 'sent' : 'gone'} on the tablet`,
      );
      continue;
    }
    if (rows.length > 1) {
      counts.duplicated += rows.length - 1;
      counts.details.push(
        `${name}: ${rows.length} copies on the server (${rows.map((r) => r.id).join(', ')})`,
      );
    }
    for (const row of rows) {
      const where = `${row.entity} ${row.record}`;
      if (row.entity !== photo.entity || row.record !== record?.serverId) {
        counts.wrong += 1;
        counts.details.push(
          `${name}: stored under ${where}, its record is ${photo.entity} ${String(record?.serverId)}`,
        );
      } else if (row.sha256 !== photo.sha256 || row.bytes !== photo.bytes) {
        counts.wrong += 1;
        counts.details.push(
          `${name}: the server's ${row.bytes} B under ${where} differ from the bytes taken`,
        );
      }
    }
  }
  // Stored photos nobody took: a second copy of a taken photo (its bytes, under its record: a
  // queue that sent it again as a new upload) is a duplicate; anything else is wrong.
  const serverIdOf = new Map<string, number | null>();
  for (const photo of taken) {
    const record = (await tablet.db.table(ENTITY_TABLE[photo.entity]).get(photo.recordLocalId)) as
      { serverId: number | null } | undefined;
    serverIdOf.set(photo.id, record?.serverId ?? null);
  }
  for (const [photoId, rows] of byPhoto) {
    for (const row of rows) {
      const copyOf = taken.find(
        (p) =>
          p.sha256 === row.sha256 && p.entity === row.entity && serverIdOf.get(p.id) === row.record,
      );
      if (copyOf) counts.duplicated += 1;
      else counts.wrong += 1;
      counts.details.push(
        `photo ${photoId} on the server under ${row.entity} ${row.record} was never taken` +
          (copyOf ? ` (a copy of ${copyOf.id.slice(0, 8)} of ${copyOf.key})` : ''),
      );
    }
  }
  return counts;
}
