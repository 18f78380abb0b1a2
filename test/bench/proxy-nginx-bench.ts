/**
 * Issue 13's first rows: the BFF against nginx proxying the same records service with the token
 * added, for the list read (`GET /api/v1/site?pageSize=50`) and a create with a fresh
 * Idempotency-Key. Interleaved rounds (BFF then nginx, then nginx then BFF, …) so drift in the
 * machine's load falls on both sides alike; medians of the rounds' throughput and p99 latency.
 * The records service and the BFF run in one child process, as `npm start` runs them.
 */
import { loadavg } from 'node:os';
import { load, prepareClients, startServerProcess, type Run } from './bff-proxy-bench';
import { findNginx, startNginxProxy } from './nginx-reference';
import type { BenchRow } from './run';

const ROUNDS = Number(process.env.PROXY_BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.PROXY_BENCH_SECONDS ?? 3);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

type Side = 'bff' | 'nginx';
type Case = { label: string; path: string; body: string | null; withKey: boolean };

export async function benchProxyVsNginx(): Promise<BenchRow[]> {
  const nginx = findNginx();
  if (!nginx) {
    process.stderr.write(
      '  nginx is not installed: no reference, no rows (apt-get install nginx)\n',
    );
    return [];
  }
  const servers = await startServerProcess(
    process.env.PROXY_BENCH_LAYOUT === 'one-thread' ? 'one-thread' : 'split',
  );
  const clients = await prepareClients(servers.recordsUrl, servers.bffUrl);
  const proxy = await startNginxProxy(nginx, servers.recordsUrl, clients.token);
  const cases: Case[] = [
    { label: 'GET sites page of 50', path: '/api/v1/site?pageSize=50', body: null, withKey: false },
    {
      label: 'POST collection + Idempotency-Key',
      path: '/api/v1/arthropod/collection',
      body: clients.body,
      withKey: true,
    },
  ];
  const headers: Record<Side, Record<string, string>> = {
    bff: clients.viaBff,
    nginx: { 'content-type': 'application/json' },
  };
  const base: Record<Side, string> = { bff: servers.bffUrl, nginx: proxy.url };
  const load1 = loadavg()[0];
  try {
    // Some rows so the list is a full page of 50, then warm both paths.
    for (let i = 0; i < 60; i++)
      await fetch(`${servers.recordsUrl}/v1/site`, {
        method: 'POST',
        headers: clients.direct,
        body: JSON.stringify({
          code: String(800000 + i),
          name: `Reference site ${i}`,
          coordinate_precision: 1,
          shape: { type: 'Point', coordinates: [-121.4 - i / 1000, 38.5] },
        }),
      });
    for (const c of cases)
      for (const side of ['bff', 'nginx'] as const)
        await load(`${base[side]}${c.path}`, headers[side], c.body, c.withKey, 1);

    const runs = new Map<string, Run[]>();
    for (let round = 0; round < ROUNDS; round++) {
      const order: Side[] = round % 2 ? ['nginx', 'bff'] : ['bff', 'nginx'];
      for (const c of cases)
        for (const side of order) {
          const r = await load(`${base[side]}${c.path}`, headers[side], c.body, c.withKey, SECONDS);
          const key = `${c.label}|${side}`;
          runs.set(key, [...(runs.get(key) ?? []), r]);
        }
    }
    const rows: BenchRow[] = [];
    let failed = 0;
    for (const c of cases) {
      const b = runs.get(`${c.label}|bff`) ?? [];
      const n = runs.get(`${c.label}|nginx`) ?? [];
      failed += [...b, ...n].reduce((sum, r) => sum + r.failed, 0);
      const bRps = median(b.map((r) => r.rps));
      const nRps = median(n.map((r) => r.rps));
      rows.push(
        { name: `${c.label}: BFF throughput (median)`, value: bRps, unit: 'req/s' },
        { name: `${c.label}: nginx throughput (median)`, value: nRps, unit: 'req/s' },
        { name: `${c.label}: BFF p99`, value: median(b.map((r) => r.p99)), unit: 'ms' },
        { name: `${c.label}: nginx p99`, value: median(n.map((r) => r.p99)), unit: 'ms' },
        {
          name: `${c.label}: BFF / nginx throughput`,
          value: bRps / nRps,
          unit: 'x',
          goal: { atLeast: 0.9 },
          note: `rounds ${b.map((r) => r.rps.toFixed(0)).join(' ')} vs ${n.map((r) => r.rps.toFixed(0)).join(' ')}`,
        },
      );
    }
    rows.push(
      { name: 'BFF vs nginx: non-2xx or errors', value: failed, unit: 'responses' },
      { name: 'BFF vs nginx: load average (1 min) at start', value: load1, unit: '' },
      { name: 'BFF vs nginx: load average (1 min) at end', value: loadavg()[0], unit: '' },
    );
    return rows;
  } finally {
    await proxy.stop();
    await servers.stop();
  }
}
