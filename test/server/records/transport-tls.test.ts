import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildRecords } from '../../../src/server/records/app';
import { buildTestRecords, TEST_PASSWORD, type TestRecords } from '../helpers/records-app';

/** This machine's first non-loopback IPv4 address: a connection to it has a non-loopback peer. */
const lanAddress =
  Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address ?? null;

let dir: string;
let plain: TestRecords;
let tls: FastifyInstance;
const insecure = new Agent({ connect: { rejectUnauthorized: false } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trapline-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    {
      stdio: 'ignore',
    },
  );
  plain = await buildTestRecords();
  await plain.app.listen({ port: 0, host: '0.0.0.0' });
  tls = await buildRecords({
    db: plain.db,
    https: { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) },
  });
  await tls.listen({ port: 0, host: '0.0.0.0' });
});
afterAll(async () => {
  await tls?.close();
  await plain?.close();
  await insecure.close();
  rmSync(dir, { recursive: true, force: true });
});

const port = (app: FastifyInstance) => (app.server.address() as { port: number }).port;
const signIn = (url: string) =>
  fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo-tech', password: TEST_PASSWORD }),
    dispatcher: insecure,
  });

it('serves HTTPS itself when given a certificate and key, and accepts other machines over it', async () => {
  const host = lanAddress ?? '127.0.0.1';
  const res = await signIn(`https://${host}:${port(tls)}`);
  expect(res.status).toBe(200);
});

it('refuses plain HTTP from another machine over a real socket with 403 https_required', async () => {
  expect(lanAddress, 'this test needs a non-loopback network interface').not.toBeNull();
  const res = await signIn(`http://${lanAddress}:${port(plain.app)}`);
  expect(res.status).toBe(403);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe('https_required');
  expect((await signIn(`http://127.0.0.1:${port(plain.app)}`)).status).toBe(200);
});
