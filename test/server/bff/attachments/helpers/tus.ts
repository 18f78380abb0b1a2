import { connect } from 'node:net';
import { request } from 'undici';
import type { BffStack } from '../../helpers/bff-stack';

export type Answer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: <T = { error: { code: string; message: string } }>() => T;
};

/** A JPEG's first bytes, then `size` bytes in all that differ from position to position. */
export function fakeJpeg(size: number, seed = 1): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]).copy(b);
  return b;
}

export const PDF_HEAD = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');

export type Meta = {
  entity?: string;
  record?: string | number;
  filename?: string;
  content_type?: string;
  taken_at?: string;
  photo_id?: string;
};

const b64 = (v: string) => Buffer.from(v, 'utf8').toString('base64');

export function metadataHeader(meta: Meta): string {
  return Object.entries(meta)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${b64(String(v))}`)
    .join(',');
}

/** tus requests as the app sends them: session cookie, X-CSRF, same Origin, Tus-Resumable. */
export function tusClient(stack: BffStack, cookie: string) {
  const send = async (
    method: 'POST' | 'HEAD' | 'PATCH' | 'DELETE',
    path: string,
    headers: Record<string, string>,
    body?: Buffer,
  ): Promise<Answer> => {
    const res = await request(`${stack.url}${path}`, {
      method,
      headers: {
        origin: stack.url,
        'x-csrf': '1',
        cookie,
        'tus-resumable': '1.0.0',
        ...headers,
      },
      body,
    });
    const text = await res.body.text();
    return {
      status: res.statusCode,
      headers: res.headers,
      text,
      json: <T>() => JSON.parse(text) as T,
    };
  };
  return {
    create: (meta: Meta, length: number) =>
      send('POST', '/api/uploads', {
        'upload-length': String(length),
        'upload-metadata': metadataHeader(meta),
      }),
    offset: async (location: string) => {
      const res = await send('HEAD', location, {});
      return { status: res.status, offset: Number(res.headers['upload-offset']) };
    },
    patch: (location: string, offset: number, bytes: Buffer) =>
      send(
        'PATCH',
        location,
        { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        bytes,
      ),
    terminate: (location: string) => send('DELETE', location, {}),
    /**
     * A PATCH whose connection drops after `sent` of `bytes` went out (the tablet lost signal):
     * Content-Length announces all of them, the socket is destroyed once the server has had
     * time to read what was sent.
     */
    cutPatch: async (location: string, offset: number, bytes: Buffer, sent: number) => {
      const url = new URL(stack.url);
      const socket = connect(Number(url.port), url.hostname);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('error', reject);
      });
      socket.on('error', () => undefined);
      socket.write(
        [
          `PATCH ${location} HTTP/1.1`,
          `Host: ${url.host}`,
          `Origin: ${stack.url}`,
          'X-CSRF: 1',
          `Cookie: ${cookie}`,
          'Tus-Resumable: 1.0.0',
          `Upload-Offset: ${offset}`,
          'Content-Type: application/offset+octet-stream',
          `Content-Length: ${bytes.length}`,
          '',
          '',
        ].join('\r\n'),
      );
      socket.write(bytes.subarray(0, sent));
      await new Promise((r) => setTimeout(r, 150));
      socket.destroy();
    },
  };
}

/** Sends the rest of an upload from wherever the server says it stands. */
export async function finish(
  tus: ReturnType<typeof tusClient>,
  location: string,
  bytes: Buffer,
): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const { offset } = await tus.offset(location);
    if (offset === bytes.length) return;
    const res = await tus.patch(location, offset, bytes.subarray(offset));
    if (res.status === 204) continue;
    if (res.status !== 409 && res.status !== 423) throw new Error(`${res.status} ${res.text}`);
  }
  throw new Error('upload did not finish');
}
