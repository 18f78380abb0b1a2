import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from '../helpers/bff-stack';
import { makeCollection, makeSite } from '../helpers/record-bodies';
import { fakeJpeg, finish, PDF_HEAD, tusClient, type Meta } from './helpers/tus';

let stack: BffStack;
let tech: string;
let manager: string;
let neighbor: string;
let collection: number;
let site: number;
let neighborSite: number;

const QUOTA = 12 * 1024 * 1024;

type Listed = { rows: Array<{ id: number; bytes: number; filename: string; user: string }> };

const photo = (over: Meta = {}): Meta => ({
  entity: 'collection',
  record: collection,
  filename: 'trap.jpg',
  content_type: 'image/jpeg',
  taken_at: '2026-07-14T06:30:00.000Z',
  photo_id: randomUUID(),
  ...over,
});

async function created(cookie: string, body: Record<string, unknown>, path: string) {
  const res = await stack.api(path, { method: 'POST', body, cookie });
  expect(res.status, res.text).toBe(201);
  return res.json<{ id: number }>().id;
}

async function listed(cookie: string, entity = 'collection', record = collection) {
  const res = await stack.api(`/api/attachments?entity=${entity}&record=${record}`, { cookie });
  expect(res.status, res.text).toBe(200);
  return res.json<Listed>().rows;
}

async function storedBytes(id: number, cookie = tech) {
  const res = await fetch(`${stack.url}/api/attachments/${id}`, {
    headers: { 'x-csrf': '1', cookie },
  });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), res };
}

/** Uploads `bytes` whole; returns the upload's location. */
async function upload(cookie: string, meta: Meta, bytes: Buffer) {
  const tus = tusClient(stack, cookie);
  const res = await tus.create(meta, bytes.length);
  expect(res.status, res.text).toBe(201);
  const location = String(res.headers.location);
  const patched = await tus.patch(location, 0, bytes);
  expect(patched.status, patched.text).toBe(204);
  return location;
}

beforeAll(async () => {
  stack = await startBffStack({ bff: { photoQuotaBytes: QUOTA } });
  [tech, manager, neighbor] = await Promise.all([
    stack.signIn('demo-tech'),
    stack.signIn('demo-manager'),
    stack.signIn('neighbor-manager'),
  ]);
  site = await created(manager, makeSite(), '/api/v1/site');
  collection = await created(tech, makeCollection(), '/api/v1/arthropod/collection');
  neighborSite = await created(neighbor, makeSite(), '/api/v1/site');
});

afterAll(async () => {
  await stack?.close();
});

describe('photos over tus at /api/uploads', () => {
  it('stores a photo of a collection and gives back the same bytes to the agency only', async () => {
    const bytes = fakeJpeg(700_000);
    const meta = photo({ filename: 'flooded basin.jpg' });
    await upload(tech, meta, bytes);

    const rows = await listed(tech);
    const row = rows.find((r) => r.filename === 'flooded basin.jpg');
    expect(row).toMatchObject({ bytes: 700_000, user: 'demo-tech' });
    const got = await storedBytes(row!.id);
    expect(got.status).toBe(200);
    expect(got.res.headers.get('content-type')).toBe('image/jpeg');
    expect(got.bytes.equals(bytes)).toBe(true);

    // Another agency sees neither the list nor the photo.
    expect(await listed(neighbor)).toEqual([]);
    expect((await storedBytes(row!.id, neighbor)).status).toBe(404);
  });

  it.each([5, 12, 4096, 300_000, 599_999])(
    'resumes a photo cut after %i bytes and stores it once, byte for byte',
    async (cutAt) => {
      const bytes = fakeJpeg(600_000, cutAt);
      const meta = photo({ filename: `cut-${cutAt}.jpg` });
      const tus = tusClient(stack, tech);
      const res = await tus.create(meta, bytes.length);
      expect(res.status, res.text).toBe(201);
      const location = String(res.headers.location);

      await tus.cutPatch(location, 0, bytes, cutAt);
      const { offset } = await tus.offset(location);
      // What arrived whole is kept (a head too short to check is sent again).
      expect(offset).toBeLessThanOrEqual(cutAt);
      if (cutAt >= 12) expect(offset).toBe(cutAt);
      expect((await listed(tech)).some((r) => r.filename === meta.filename)).toBe(false);

      await finish(tus, location, bytes);
      const rows = (await listed(tech)).filter((r) => r.filename === meta.filename);
      expect(rows).toHaveLength(1);
      expect((await storedBytes(rows[0].id)).bytes.equals(bytes)).toBe(true);
    },
  );

  it('continues the first upload when the tablet creates the same photo again', async () => {
    const bytes = fakeJpeg(50_000);
    const meta = photo({ filename: 'twice.jpg' });
    const tus = tusClient(stack, tech);
    const first = await tus.create(meta, bytes.length);
    const second = await tus.create(meta, bytes.length);
    expect(second.status).toBe(201);
    expect(second.headers.location).toBe(first.headers.location);
    await finish(tus, String(first.headers.location), bytes);
    expect((await listed(tech)).filter((r) => r.filename === 'twice.jpg')).toHaveLength(1);
  });

  it('refuses an image whose bytes are not what its content type says, storing nothing', async () => {
    const lying = Buffer.concat([PDF_HEAD, Buffer.alloc(20_000, 7)]);
    const meta = photo({ filename: 'report.jpg' });
    const tus = tusClient(stack, tech);
    const res = await tus.create(meta, lying.length);
    const location = String(res.headers.location);
    const patched = await tus.patch(location, 0, lying);
    expect(patched.status, patched.text).toBe(415);
    expect(patched.json().error.code).toBe('unsupported_media_type');
    expect(patched.json().error.message).toMatch(/not the JPEG image/);
    expect((await tus.offset(location)).offset).toBe(0);
    // A PNG declared as JPEG likewise.
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(100, 1),
    ]);
    const other = await tus.create(photo({ filename: 'png.jpg' }), png.length);
    const refused = await tus.patch(String(other.headers.location), 0, png);
    expect(refused.status).toBe(415);
    expect((await listed(tech)).some((r) => /report|png/.test(r.filename))).toBe(false);
  });

  it('refuses a PDF by its content type before any byte is sent', async () => {
    const res = await tusClient(stack, tech).create(
      photo({ filename: 'lab.pdf', content_type: 'application/pdf' }),
      50_000,
    );
    expect(res.status).toBe(415);
    expect(res.json().error).toMatchObject({ code: 'unsupported_media_type' });
    expect(res.json().error.message).toMatch(/JPEG, PNG or WebP/);
  });

  it('refuses a 60 MB file before storing any of it', async () => {
    const tus = tusClient(stack, tech);
    const res = await tus.create(photo({ filename: 'huge.jpg' }), 60 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
    expect(res.json().error.message).toMatch(/60 MB; at most 10 MB/);
    // Declared small, sent large: tus stops at the declared length.
    const small = fakeJpeg(1000);
    const made = await tus.create(photo({ filename: 'liar.jpg' }), small.length);
    const big = Buffer.concat([small, Buffer.alloc(2 * 1024 * 1024, 3)]);
    const patched = await tus.patch(String(made.headers.location), 0, big);
    expect(patched.status).toBeGreaterThanOrEqual(400);
    expect(patched.status).toBeLessThan(500);
    expect((await listed(tech)).some((r) => r.filename === 'liar.jpg')).toBe(false);
  });

  it('refuses a photo of a record of another agency, and of no record', async () => {
    const tus = tusClient(stack, tech);
    const theirs = await tus.create(photo({ entity: 'site', record: neighborSite }), 1000);
    expect(theirs.status).toBe(404);
    expect(theirs.json().error.code).toBe('not_found');
    const none = await tus.create(photo({ record: 999_999 }), 1000);
    expect(none.status).toBe(404);
  });

  it('answers bad metadata with 422 naming each field', async () => {
    const res = await tusClient(stack, tech).create(
      { entity: 'trap', record: 'abc', content_type: 'image/jpeg', filename: 'x.jpg' },
      1000,
    );
    expect(res.status).toBe(422);
    const paths = res
      .json<{ error: { fields: Array<{ path: string }> } }>()
      .error.fields.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['entity', 'record', 'photo_id']));
  });

  it("refuses an upload past the agency's quota, each agency counted on its own", async () => {
    const own = await storedUsage();
    const left = QUOTA - own;
    const tus = tusClient(stack, manager);
    const tooBig = await tus.create(photo({ entity: 'site', record: site }), left + 1);
    expect(tooBig.status).toBe(413);
    expect(tooBig.json().error.code).toBe('quota_exceeded');
    expect(tooBig.json().error.message).toMatch(/photo storage is full/);
    // The neighbour agency's quota is its own.
    const theirs = tusClient(stack, neighbor);
    const ok = await theirs.create(photo({ entity: 'site', record: neighborSite }), 2_000_000);
    expect(ok.status).toBe(201);
  });

  it('lets the author and a manager delete a photo, not another technician or agency', async () => {
    const bytes = fakeJpeg(2000);
    await upload(manager, photo({ entity: 'site', record: site, filename: 'mgr.jpg' }), bytes);
    await upload(tech, photo({ entity: 'site', record: site, filename: 'tech.jpg' }), bytes);
    const rows = await listed(tech, 'site', site);
    const byManager = rows.find((r) => r.filename === 'mgr.jpg')!;
    const byTech = rows.find((r) => r.filename === 'tech.jpg')!;

    const del = (id: number, cookie: string) =>
      stack.api(`/api/attachments/${id}`, { method: 'DELETE', cookie });
    const refused = await del(byManager.id, tech);
    expect(refused.status).toBe(403);
    expect(refused.json<{ error: { message: string } }>().error.message).toMatch(/demo-manager/);
    expect((await del(byTech.id, neighbor)).status).toBe(404);
    expect((await del(byTech.id, manager)).status).toBe(204);
    expect((await del(byManager.id, manager)).status).toBe(204);
    expect(await listed(tech, 'site', site)).toEqual([]);
    expect((await del(byManager.id, manager)).status).toBe(404);
  });

  it('keeps the rules of every /api route: session, X-CSRF, no CORS', async () => {
    const noSession = await tusClient(stack, '').create(photo(), 1000);
    expect(noSession.status).toBe(401);
    const res = await stack.api('/api/uploads', {
      method: 'POST',
      cookie: tech,
      csrf: false,
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '1000' },
    });
    expect(res.status).toBe(403);
    const made = await tusClient(stack, tech).create(photo(), 1000);
    expect(made.status).toBe(201);
    expect(Object.keys(made.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect(made.headers['cache-control']).toBe('no-store');
    // Someone else's unfinished upload is not theirs to continue.
    const other = await tusClient(stack, manager).offset(String(made.headers.location));
    expect(other.status).toBe(404);
  });
});

/** Bytes the tech's agency holds now, by the list of every record used above. */
async function storedUsage(): Promise<number> {
  const { rows } = await stack.records.db.query<{ total: string }>(
    'select coalesce(sum(bytes), 0) as total from bff_attachment where agency_id = 1',
  );
  return Number(rows[0].total);
}
