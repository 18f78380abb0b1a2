import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeBody, UndecodableAnswer } from '../../../src/server/bff/upstream-encoding';

const json = JSON.stringify({ rows: [{ id: 1, name: 'Putah Creek, North — Peña' }], count: 1 });

describe('decodeBody: what the upstream sent, as text', () => {
  it('decodes br and gzip, and passes identity through', async () => {
    const raw = Buffer.from(json);
    expect(await decodeBody(brotliCompressSync(raw), 'br', 1 << 20)).toBe(json);
    expect(await decodeBody(gzipSync(raw), 'gzip', 1 << 20)).toBe(json);
    expect(await decodeBody(raw, undefined, 1 << 20)).toBe(json);
    expect(await decodeBody(raw, 'identity', 1 << 20)).toBe(json);
  });

  it('refuses a body cut short, a corrupt one, and an encoding it never asked for', async () => {
    const gz = gzipSync(Buffer.from(json.repeat(50)));
    await expect(decodeBody(gz.subarray(0, gz.length - 12), 'gzip', 1 << 20)).rejects.toThrow(
      UndecodableAnswer,
    );
    await expect(decodeBody(Buffer.from('not brotli'), 'br', 1 << 20)).rejects.toThrow(
      UndecodableAnswer,
    );
    await expect(decodeBody(Buffer.from(json), 'compress', 1 << 20)).rejects.toThrow(
      UndecodableAnswer,
    );
  });

  it('stops a small answer that would inflate past the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(8 << 20));
    expect(bomb.length).toBeLessThan(16 << 10);
    await expect(decodeBody(bomb, 'gzip', 1 << 20)).rejects.toThrow(UndecodableAnswer);
  });
});
