import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBff, type RunningBff } from '../../../src/server/bff/app';
import type { Database } from '../../../src/server/db/database';
import { openTestDatabase } from '../helpers/test-database';

/**
 * Issue 36 N9: one client held 4,000 half-sent request bodies open at once (4,421 of 20,000 file
 * descriptors), each for up to 31 s. Where the BFF faces tablets directly, one address may hold
 * at most N connections; beyond that a new one is closed before anything is read. Loopback (a
 * reverse proxy on the same machine, carrying everyone's connections) is not counted.
 */

const CAP = 3;
/** Another loopback address (Linux routes all of 127.0.0.0/8 here): connections from it are a "tablet's". */
const tablet = '127.0.0.2';

let db: Database;
let bff: RunningBff;
let port: number;
beforeAll(async () => {
  db = await openTestDatabase();
  bff = await startBff({
    db,
    upstreamUrl: 'http://127.0.0.1:9',
    staticRoot: null,
    maxConnectionsPerAddress: CAP,
    host: '127.0.0.1',
  });
  port = Number(new URL(bff.url).port);
});
afterAll(async () => {
  await bff?.close();
  await db?.close();
});

const open = new Set<Socket>();
afterAll(() => {
  for (const s of open) s.destroy();
});

/** A connection from `host` that has sent half a request: its body never comes. */
function halfSent(host: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: host }, () => {
      socket.write(
        'POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"user',
      );
      resolve(socket);
    });
    socket.on('error', reject);
    open.add(socket);
  });
}

/** Whether a fresh connection from `host` gets an answer to GET /api/health, or is closed. */
function health(host: string): Promise<'answered' | 'closed'> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: host }, () => {
      socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    });
    let text = '';
    socket.on('data', (c) => (text += String(c)));
    socket.on('error', () => {});
    socket.on('close', () => resolve(/^HTTP\/1\.1 \d{3}/.test(text) ? 'answered' : 'closed'));
  });
}

describe('connections per client address', () => {
  it(`refuses a connection beyond ${CAP} from one address, and takes one again once a slot frees`, async () => {
    const held = [];
    for (let i = 0; i < CAP; i++) held.push(await halfSent(tablet));
    expect(await health(tablet)).toBe('closed');
    held[0].destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect(await health(tablet)).toBe('answered');
    for (const s of held) s.destroy();
  });

  it('does not count loopback (a reverse proxy on the same machine)', async () => {
    const held = [];
    for (let i = 0; i < CAP + 3; i++) held.push(await halfSent('127.0.0.1'));
    expect(await health('127.0.0.1')).toBe('answered');
    for (const s of held) s.destroy();
  });
});
