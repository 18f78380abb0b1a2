import { MAX_PHOTO_SIDE } from '#shared/schemas/attachment';

/** Long side of a photo's thumbnail (the strip shows it at 96 px; sharp on a 2× screen). */
export const THUMB_SIDE = 256;
const PHOTO_QUALITY = 0.85;
const THUMB_QUALITY = 0.7;

export type ResizedPhoto = { blob: Blob; thumb: Blob; width: number; height: number };

/** The size `width × height` takes with its long side at most `max`, never enlarged. */
export function fitWithin(width: number, height: number, max: number) {
  const scale = Math.min(1, max / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/**
 * A camera photo as the app keeps and sends it: decoded upright (its EXIF orientation applied,
 * imageOrientation 'from-image'), at most MAX_PHOTO_SIDE px on its long side, re-encoded as JPEG.
 * Re-encoding writes no EXIF, so the camera's location and serial number never leave the
 * tablet. A thumbnail is made from the same decode.
 */
export async function resizePhoto(file: Blob): Promise<ResizedPhoto> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const size = fitWithin(bitmap.width, bitmap.height, MAX_PHOTO_SIDE);
    const thumbSize = fitWithin(bitmap.width, bitmap.height, THUMB_SIDE);
    const blob = await encode(bitmap, size.width, size.height, PHOTO_QUALITY);
    const thumb = await encode(bitmap, thumbSize.width, thumbSize.height, THUMB_QUALITY);
    return { blob, thumb, ...size };
  } finally {
    bitmap.close();
  }
}

async function encode(
  bitmap: ImageBitmap,
  width: number,
  height: number,
  quality: number,
): Promise<Blob> {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    const g = canvas.getContext('2d');
    if (!g) throw new Error('This browser cannot draw images');
    g.imageSmoothingQuality = 'high';
    g.drawImage(bitmap, 0, 0, width, height);
    return canvas.convertToBlob({ type: 'image/jpeg', quality });
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext('2d');
  if (!g) throw new Error('This browser cannot draw images');
  g.imageSmoothingQuality = 'high';
  g.drawImage(bitmap, 0, 0, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error('The photo could not be encoded'))),
      'image/jpeg',
      quality,
    ),
  );
}
