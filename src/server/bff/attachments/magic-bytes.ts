import type { PhotoContentType } from '#shared/schemas/attachment';

/** Bytes at the start of a file that tell its real type: enough for JPEG, PNG and WebP. */
export const MAGIC_LENGTH = 12;

/**
 * Whether `head` (the file's first MAGIC_LENGTH bytes, or all of a shorter file) starts as
 * `type` says. The declared type is never trusted: a PDF or a script named photo.jpg with
 * content_type image/jpeg is refused before any of it is stored.
 */
export function matchesContentType(head: Uint8Array, type: PhotoContentType): boolean {
  const at = (offset: number, bytes: number[]) =>
    head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);
  switch (type) {
    case 'image/jpeg':
      return at(0, [0xff, 0xd8, 0xff]);
    case 'image/png':
      return at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/webp':
      // RIFF <4-byte size> WEBP
      return at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50]);
  }
}
