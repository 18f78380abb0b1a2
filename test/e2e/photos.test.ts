import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PORTRAIT } from './harness/browser';
import { createCollectionAtSite, createSiteByMap, visible } from './harness/field-actions';
import { eventually, userDbName } from './harness/local-db';
import { screenshot } from './harness/screenshot';
import { signedInTabletOnFreshStack } from './harness/signed-in-tablet';

/** A camera's JPEG: 3000 × 1500, red on the left half, blue on the right, made by Chromium. */
async function cameraJpeg(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(3000, 1500);
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#ff0000';
    g.fillRect(0, 0, 1500, 1500);
    g.fillStyle = '#0000ff';
    g.fillRect(1500, 0, 1500, 1500);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s);
  });
  return Buffer.from(base64, 'base64');
}

/**
 * The same JPEG with an EXIF block saying "rotate 90° clockwise to show" (Orientation 6), as
 * a phone held upright writes it, plus a camera serial to see stripped.
 */
function withExifOrientation6(jpeg: Buffer): Buffer {
  const exif = Buffer.from([
    0xff,
    0xe1,
    0x00,
    0x22, // APP1, length 34
    0x45,
    0x78,
    0x69,
    0x66,
    0x00,
    0x00, // "Exif\0\0"
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0x00,
    0x00,
    0x00,
    0x08, // TIFF, big-endian, IFD0 at 8
    0x00,
    0x01, // one entry
    0x01,
    0x12,
    0x00,
    0x03,
    0x00,
    0x00,
    0x00,
    0x01,
    0x00,
    0x06,
    0x00,
    0x00, // Orientation = 6
    0x00,
    0x00,
    0x00,
    0x00, // no next IFD
  ]);
  return Buffer.concat([jpeg.subarray(0, 2), exif, jpeg.subarray(2)]);
}

type StoredPhoto = {
  state: string;
  width: number;
  height: number;
  bytes: number;
  hasExif: boolean;
  /** Red-ness at the top and the bottom of the stored image. */
  top: [number, number, number];
  bottom: [number, number, number];
  base64: string;
};

/** The photo as the tablet stores it (raw IndexedDB, not through the app). */
function storedPhoto(page: Page, dbName: string): Promise<StoredPhoto | null> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const rows = await new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
      const req = db.transaction('photos').objectStore('photos').getAll();
      req.onsuccess = () => resolve(req.result as Array<Record<string, unknown>>);
      req.onerror = () => reject(req.error);
    });
    db.close();
    const row = rows[0];
    if (!row) return null;
    const blob = row.blob as Blob;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    const bitmap = await createImageBitmap(blob);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const g = canvas.getContext('2d')!;
    g.drawImage(bitmap, 0, 0);
    const px = (y: number) =>
      [...g.getImageData(Math.floor(bitmap.width / 2), y, 1, 1).data.slice(0, 3)] as [
        number,
        number,
        number,
      ];
    return {
      state: row.state as string,
      width: row.width as number,
      height: row.height as number,
      bytes: row.bytes as number,
      hasExif: s.includes('Exif'),
      top: px(50),
      bottom: px(bitmap.height - 50),
      base64: btoa(s),
    };
  }, dbName);
}

describe('photos on records', () => {
  const tablet = signedInTabletOnFreshStack();

  it('takes a photo offline on a new collection, upright and small, and sends the same bytes once online', async () => {
    const page = tablet.app.page;
    const photoFile = withExifOrientation6(await cameraJpeg(page));
    await tablet.app.context.setOffline(true);

    await createSiteByMap(page, { code: '742001', name: 'Photo Slough' });
    await createCollectionAtSite(page, [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 12 }]);
    const photos = page.getByRole('region', { name: 'Photos' });
    await visible(photos);
    await photos.getByLabel('Add photo').setInputFiles({
      name: 'IMG_0042.JPG',
      mimeType: 'image/jpeg',
      buffer: photoFile,
    });
    // Shown at once, on the tablet, offline.
    const thumb = photos.getByRole('img', { name: 'Photo IMG_0042.jpg' });
    await visible(thumb);
    // Drawn, not a broken image: the thumbnail decodes under the app's Content-Security-Policy.
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await visible(photos.getByText('Waiting to send'));
    await visible(
      page
        .getByTestId('photo-uploads')
        .getByText(/1 photo to send \(1 waits for its record to be sent\)/),
    );

    const dbName = userDbName(1, 'demo-tech');
    const stored = (await storedPhoto(page, dbName))!;
    // EXIF orientation applied (3000 × 1500 turned upright), the long side at 2048, EXIF gone.
    expect([stored.width, stored.height]).toEqual([1024, 2048]);
    expect(stored.hasExif).toBe(false);
    expect(stored.top[0]).toBeGreaterThan(200); // the red half is now on top
    expect(stored.top[2]).toBeLessThan(60);
    expect(stored.bottom[2]).toBeGreaterThan(200);
    expect(stored.state).toBe('waiting');

    await screenshot(page, 'photos-strip-1280x800');
    await page.setViewportSize(PORTRAIT);
    await screenshot(page, 'photos-strip-800x1280');
    const add = await photos.locator('.photos-add').boundingBox();
    expect(add!.height).toBeGreaterThanOrEqual(48);

    await tablet.app.context.setOffline(false);
    await eventually(
      () => storedPhoto(page, dbName),
      (p) => p?.state === 'sent',
      { timeoutMs: 60_000, what: 'the photo to be sent' },
    );
    await visible(photos.getByText('Sent'));

    const collectionLocalId = new URL(page.url()).pathname.split('/')[2];
    const onServer = await page.evaluate(async (localId) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(`trapline-a1-demo-tech`);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const row = await new Promise<{ serverId: number }>((resolve, reject) => {
        const req = db.transaction('collections').objectStore('collections').get(localId);
        req.onsuccess = () => resolve(req.result as { serverId: number });
        req.onerror = () => reject(req.error);
      });
      db.close();
      const list = await fetch(`/api/attachments?entity=collection&record=${row.serverId}`, {
        headers: { 'X-CSRF': '1' },
      });
      const rows = ((await list.json()) as { rows: Array<{ id: number }> }).rows;
      const res = await fetch(`/api/attachments/${rows[0].id}`, { headers: { 'X-CSRF': '1' } });
      const bytes = new Uint8Array(await res.arrayBuffer());
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return { count: rows.length, base64: btoa(s) };
    }, collectionLocalId);
    expect(onServer.count).toBe(1);
    expect(onServer.base64).toBe(stored.base64);
  });
});
