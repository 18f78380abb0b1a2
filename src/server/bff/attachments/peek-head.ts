import { Readable } from 'node:stream';

/**
 * Reads up to `length` bytes from the start of `body` and gives them with a stream that yields
 * the whole body again (those bytes first, then the rest as it arrives). A body that fails
 * (the connection dropped) fails the returned stream at the same point.
 */
export async function peekHead(
  body: Readable,
  length: number,
): Promise<{ head: Buffer; body: Readable }> {
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first: Buffer[] = [];
  let got = 0;
  let ended = false;
  while (got < length) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    first.push(next.value);
    got += next.value.length;
  }
  const head = Buffer.concat(first).subarray(0, length);
  async function* again() {
    yield* first;
    if (ended) return;
    for (;;) {
      const next = await chunks.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head, body: Readable.from(again(), { objectMode: false }) };
}
