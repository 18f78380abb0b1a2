/**
 * nginx as the reference reverse proxy for the BFF's figures (issue 13): one nginx worker in
 * front of the same records service, adding the same bearer token the BFF adds, with a keep-alive
 * upstream pool. Started from a config written to a temporary folder; nothing is installed or
 * left behind. Absent nginx (it is not part of the run contract), the bench says so and skips
 * the reference rows instead of inventing them.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type NginxProxy = { url: string; stop: () => Promise<void> };

/** The nginx binary on PATH or in the usual Debian place, or null. */
export function findNginx(): string | null {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    const probe = spawnSync(candidate, ['-v'], { stdio: 'ignore' });
    if (probe.status === 0) return candidate;
  }
  return null;
}

async function freePort(): Promise<number> {
  return await new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/** nginx proxying `/api/…` to `upstreamUrl/…` with `Authorization: Bearer <token>` added. */
export async function startNginxProxy(
  binary: string,
  upstreamUrl: string,
  token: string,
): Promise<NginxProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'trapline-nginx-'));
  const port = await freePort();
  const upstream = new URL(upstreamUrl);
  // One worker: the BFF is one Node process, so each side gets one process to proxy with.
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
master_process on;
user root;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream records { server ${upstream.host}; keepalive 32; }
  server {
    listen 127.0.0.1:${port};
    location /api/ {
      proxy_pass http://records/;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Authorization "Bearer ${token}";
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    try {
      await fetch(`${url}/api/v1/site?pageSize=1`);
      break;
    } catch (err) {
      if (tries > 100 || child.exitCode !== null) throw err;
      await new Promise((done) => setTimeout(done, 50));
    }
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
