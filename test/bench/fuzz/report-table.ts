import type { Finding, SoakReport } from './run-soak';

const STATUS_NAMES: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden / csrf',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'rate_limited',
};

/** The run as a table of figures, then every failure with a request that reproduces it. */
export function formatReport(r: SoakReport): string {
  const rows: Array<[string, string]> = [
    ['seed', String(r.seed)],
    ['requests answered or timed out', String(r.requests)],
    ['  straight to the records service', String(r.direct)],
    ['  through the BFF', String(r.throughBff)],
    ['  damaged on purpose', String(r.hostile)],
    ['  in concurrent bursts', String(r.bursts)],
    ...[...r.byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]): [string, string] => [
        `  status ${s} ${STATUS_NAMES[s] ?? ''}`.trimEnd(),
        String(n),
      ]),
    ['5xx answers', String(r.serverErrors.length)],
    ['hangs (no answer in time)', String(r.hangs.length)],
    ['connections dropped unanswered', String(r.connectionErrors.length)],
    ['error bodies off the contract', String(r.contractViolations.length)],
    ['burst outcomes wrong', String(r.burstProblems.length)],
    ['invariant violations (rows)', String(r.violations.reduce((s, v) => s + v.count, 0))],
    ['routes covered', `${r.routesCovered} of ${r.routesCovered + r.missingRoutes.length}`],
    ['not sent (client refused)', String(r.unsendable)],
    ['duration', `${(r.durationMs / 1000).toFixed(1)} s`],
    ['throughput', `${((r.requests / r.durationMs) * 1000).toFixed(0)} req/s`],
    ['latency p50 / p99 / max', `${r.latencyMs.p50} / ${r.latencyMs.p99} / ${r.latencyMs.max} ms`],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  const lines = ['', `${'figure'.padEnd(w)}  value`, `${'-'.repeat(w)}  -----`];
  for (const [k, v] of rows) lines.push(`${k.padEnd(w)}  ${v}`);
  const section = (title: string, items: Finding[]) => {
    if (items.length === 0) return;
    lines.push('', `${title} (${items.length}; first 10):`);
    for (const f of items.slice(0, 10)) lines.push(`  - ${f.what}`, `    ${f.request}`);
  };
  section('5xx answers', r.serverErrors);
  section('hangs', r.hangs);
  section('connections dropped', r.connectionErrors);
  section('contract violations', r.contractViolations);
  section('burst outcomes', r.burstProblems);
  section('slowest answers', r.slowest);
  if (r.violations.length > 0) {
    lines.push('', 'invariant violations:');
    for (const v of r.violations)
      lines.push(`  - ${v.name}: ${v.count} (e.g. ${JSON.stringify(v.sample)})`);
  }
  if (r.missingRoutes.length > 0)
    lines.push('', `routes never reached: ${r.missingRoutes.join(', ')}`);
  return lines.join('\n');
}

/** Whether the run met the bar: no 5xx, no hang, no dropped connection, nothing off contract. */
export function soakPassed(r: SoakReport): boolean {
  return (
    r.serverErrors.length === 0 &&
    r.hangs.length === 0 &&
    r.connectionErrors.length === 0 &&
    r.contractViolations.length === 0 &&
    r.burstProblems.length === 0 &&
    r.violations.length === 0 &&
    r.missingRoutes.length === 0
  );
}
