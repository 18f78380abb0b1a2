import { PHOTO_ENTITIES, type PhotoEntity } from '../../src/shared/schemas/attachment';
import { seededRng, type Rng } from './prng';
import type { ScenarioRecord } from './scenario';

/**
 * How many photos a seed takes: `light` keeps npm test's seeds about as long as without photos
 * (a photo on each look-alike record and a few others, small but for one of two tus chunks);
 * `full` (npm run chaos) photographs most records, some several times, with larger photos;
 * `none` runs the records alone (to compare).
 */
export type PhotoLoad = 'none' | 'light' | 'full';

/** Why a photo is there: the look-alikes are the ones a careless queue or server would mix up. */
export type PhotoLook =
  /** An ordinary photo. */
  | 'plain'
  /** The same bytes as another photo of the same record (two shots the camera made identical). */
  | 'same-bytes'
  /** On one of two look-alike records (twin traps, twin pools), the same size as its twin's. */
  | 'twin-size'
  /** On one of two look-alike records, the very bytes of its twin's photo. */
  | 'twin-bytes';

export type PlannedPhoto = {
  /** The scenario key of its record (`s0.c1.p0`). */
  key: string;
  entity: PhotoEntity;
  size: number;
  /** Seed of its bytes (see photoBytes): equal seeds and sizes, equal bytes. */
  content: number;
  /** Taken this many saves after its record (0: right after the record was saved). */
  after: number;
  look: PhotoLook;
};

/** One tus chunk of the app (photo-upload-sender): a larger photo takes several PATCHes. */
const CHUNK = 512 * 1024;

const isPhotoEntity = (e: string): e is PhotoEntity =>
  (PHOTO_ENTITIES as readonly string[]).includes(e);

/**
 * The look-alike group of a record: the first two collections of a site and the first two pools
 * of a collection are twins on purpose (scenario.ts), so `s0.c0` and `s0.c1` share `s0.c*`.
 */
const twinGroup = (key: string): string | null =>
  /\.[cp][01]$/.test(key) ? key.replace(/([cp])[01]$/, '$1*') : null;

/**
 * The photos of one seed's field work, drawn from `rng` (the same seed plans the same photos):
 * on sites, collections and pools the user keeps (a deleted record's photos go with it), most
 * taken right after the record was saved (so its create may still be queued, or faulted, and
 * the upload must wait for the server id), some a few saves later. Look-alikes on purpose:
 * at least one record has two photos of identical bytes, and twin records get photos of equal
 * size, half of them of identical bytes. In every seed at least one photo spans several chunks.
 */
export function planPhotos(rng: Rng, records: ScenarioRecord[], load: PhotoLoad): PlannedPhoto[] {
  if (load === 'none') return [];
  const light = load === 'light';
  const size = () => (light ? rng.between(2_000, 30_000) : rng.between(2_000, 250_000));
  const content = () => Math.floor(rng.next() * 2 ** 32);
  const kept = records.filter((r) => !r.doomed && isPhotoEntity(r.entity));
  // Photos of several chunks (a cut or a lost answer lands between chunks as well as within
  // one), each the first photo of a record with no twin, so no look-alike copies its size.
  const single = kept.filter((r) => twinGroup(r.key) === null);
  const large = new Set<string>();
  for (let i = light ? 1 : 3; i > 0 && single.length > 0; i -= 1) {
    large.add(single.splice(rng.int(single.length), 1)[0].key);
  }
  const twins = new Map<string, { size: number; content: number; sameBytes: boolean }>();
  const photos: PlannedPhoto[] = [];
  let sameBytesDone = false;
  for (const r of kept) {
    if (!isPhotoEntity(r.entity)) continue;
    const group = twinGroup(r.key);
    // Twins always have photos, so the look-alike case is in every seed.
    if (!group && !large.has(r.key) && !rng.chance(light ? 0.3 : 0.8)) continue;
    const count = light ? (group ? 1 : rng.between(1, 2)) : rng.between(1, 3);
    const after = rng.chance(0.75) ? 0 : rng.between(1, 6);
    const mine: PlannedPhoto[] = [];
    for (let i = 0; i < count; i += 1) {
      const shot = { key: r.key, entity: r.entity, after };
      const twinKey = group ? `${group}#${i}` : null;
      const twin = twinKey ? twins.get(twinKey) : undefined;
      if (twinKey && twin) {
        mine.push({
          ...shot,
          size: twin.size,
          content: twin.sameBytes ? twin.content : content(),
          look: twin.sameBytes ? 'twin-bytes' : 'twin-size',
        });
        continue;
      }
      const bytes =
        i === 0 && large.has(r.key)
          ? rng.between(CHUNK + 1, light ? CHUNK + CHUNK / 4 : CHUNK * 3)
          : size();
      const first = { ...shot, size: bytes, content: content(), look: 'plain' as const };
      if (twinKey) twins.set(twinKey, { ...first, sameBytes: rng.chance(0.5) });
      mine.push(first);
    }
    if (!large.has(r.key) && (!sameBytesDone || rng.chance(0.2))) {
      mine.push({ ...mine[0], look: 'same-bytes' });
      sameBytesDone = true;
    }
    photos.push(...mine);
  }
  return photos;
}

/**
 * A photo's bytes: a JPEG start (the BFF refuses bytes that are not what the content type says)
 * and end, and seeded noise between (every byte matters: a chunk in the wrong place shows).
 */
export function photoBytes(size: number, content: number): Uint8Array {
  const rng = seededRng(content);
  const bytes = new Uint8Array(size);
  const words = new Uint32Array(bytes.buffer, 0, Math.floor(size / 4));
  for (let i = 0; i < words.length; i += 1) words[i] = Math.floor(rng.next() * 2 ** 32);
  for (let i = words.length * 4; i < size; i += 1) bytes[i] = rng.int(256);
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
  bytes.set([0xff, 0xd9], size - 2);
  return bytes;
}
