import { writeFile } from 'node:fs/promises';
import { encode } from 'uqr';

/**
 * A video file for Chromium's fake camera (`--use-file-for-fake-video-capture`) that shows a QR
 * code of `text`, black on white, in the middle of the picture: what a tablet's back camera sees
 * held over a label. Y4M is a text header and raw YUV 4:2:0 frames (a luma plane, then two
 * quarter-size chroma planes; 128 = no colour). Chromium plays the file in a loop.
 */
export async function writeQrVideo(
  path: string,
  text: string,
  { width = 640, height = 480, module = 8, frames = 3 } = {},
): Promise<void> {
  const qr = encode(text, { ecc: 'M', border: 4 });
  const side = qr.size * module;
  if (side > width || side > height)
    throw new Error(`a ${side}px code does not fit ${width}x${height}`);
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      if (qr.data[Math.floor(y / module)][Math.floor(x / module)]) {
        luma[(top + y) * width + left + x] = 16;
      }
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  await writeFile(path, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}

/** Chromium flags for a camera that shows `videoPath`, allowed without asking. */
export function fakeCameraArgs(videoPath: string): string[] {
  return [
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-video-capture=${videoPath}`,
  ];
}
