import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';

/** What the BFF asks the upstream for on reads (brotli first: the smaller of the two). */
export const UPSTREAM_ACCEPT_ENCODING = 'br, gzip';

const decoders: Record<
  string,
  (raw: Buffer, opts: { maxOutputLength: number }) => Promise<Buffer>
> = {
  br: promisify(brotliDecompress),
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
};

/** The upstream's answer could not be decoded: as unusable as an answer cut off on the wire. */
export class UndecodableAnswer extends Error {}

/**
 * The upstream's body as text, decoded by its Content-Encoding. Decoded size is capped at
 * `maxBytes` (a small compressed answer may inflate to gigabytes). A body that does not decode in
 * full (cut short, corrupt, an encoding the BFF never asked for) throws UndecodableAnswer: a
 * truncated compressed stream can arrive in a well-framed HTTP message, and must be treated as a
 * lost answer, never as a shorter one.
 */
export async function decodeBody(
  raw: Buffer,
  contentEncoding: string | undefined,
  maxBytes: number,
): Promise<string> {
  const encoding = (contentEncoding ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return raw.toString('utf8');
  const decode = decoders[encoding];
  if (!decode) throw new UndecodableAnswer(`unsupported Content-Encoding "${encoding}"`);
  try {
    return (await decode(raw, { maxOutputLength: maxBytes })).toString('utf8');
  } catch (err) {
    throw new UndecodableAnswer(
      `the ${encoding} answer did not decode: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
