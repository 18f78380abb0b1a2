import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * The backup file: one line naming the format, one line of JSON saying what it holds (each part's
 * size and SHA-256), then the parts' bytes in that order. Each part is PGlite's gzipped tarball
 * of one embedded database's data directory. The sizes and digests make a truncated, cut or
 * altered file refused whole before anything is written; `head -2 FILE` says what a file is.
 */
export const BACKUP_MAGIC = 'TRAPLINE-BACKUP 1';

/** Where each part's database lives, relative to TRAPLINE_DATA_DIR. */
export const PART_DIRS = { records: '.', bff: 'bff' } as const;
export type PartName = keyof typeof PART_DIRS;

const manifestSchema = z.strictObject({
  created: z.iso.datetime(),
  parts: z
    .array(
      z.strictObject({
        name: z.enum(['records', 'bff']),
        bytes: z.number().int().positive(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .min(1),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

export type BackupPart = { name: PartName; bytes: Buffer };

export class NotABackupError extends Error {}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export function encodeBackup(parts: BackupPart[], created: Date): Buffer {
  const manifest: BackupManifest = {
    created: created.toISOString(),
    parts: parts.map((p) => ({ name: p.name, bytes: p.bytes.length, sha256: sha256(p.bytes) })),
  };
  const head = Buffer.from(`${BACKUP_MAGIC}\n${JSON.stringify(manifest)}\n`, 'utf8');
  return Buffer.concat([head, ...parts.map((p) => p.bytes)]);
}

/** The file's parts, each checked against the manifest; throws NotABackupError saying why not. */
export function decodeBackup(file: Buffer): { manifest: BackupManifest; parts: BackupPart[] } {
  const firstEol = file.indexOf(0x0a);
  if (firstEol < 0 || file.subarray(0, firstEol).toString('latin1') !== BACKUP_MAGIC) {
    throw new NotABackupError('it is not a Trapline backup (made by npm run records -- backup)');
  }
  const secondEol = file.indexOf(0x0a, firstEol + 1);
  let manifest: BackupManifest;
  try {
    if (secondEol < 0) throw new Error('no manifest');
    manifest = manifestSchema.parse(
      JSON.parse(file.subarray(firstEol + 1, secondEol).toString('utf8')),
    );
  } catch {
    throw new NotABackupError('its list of contents is damaged or cut short');
  }
  const expected = manifest.parts.reduce((n, p) => n + p.bytes, 0);
  const held = file.length - secondEol - 1;
  if (held !== expected) {
    throw new NotABackupError(
      held < expected
        ? `it is cut short (${held} of ${expected} bytes): an interrupted copy?`
        : `it has ${held - expected} bytes more than its contents: not as written`,
    );
  }
  const parts: BackupPart[] = [];
  let at = secondEol + 1;
  for (const p of manifest.parts) {
    const bytes = file.subarray(at, at + p.bytes);
    at += p.bytes;
    if (sha256(bytes) !== p.sha256) {
      throw new NotABackupError(`its ${p.name} database is damaged (checksum differs)`);
    }
    parts.push({ name: p.name, bytes });
  }
  return { manifest, parts };
}
