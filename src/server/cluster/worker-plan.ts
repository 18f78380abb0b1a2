/**
 * How many stacks `npm start -- --workers N` runs, and on which ports. Each worker is one Node
 * process holding a BFF and its records service (on a thread of its own, as `npm start` always
 * runs it); worker i listens on PORT + 2i (BFF) and RECORDS_PORT + 2i (records service), so the
 * defaults give 8080/8081, 8082/8083, … and a reverse proxy balances over the BFF ports
 * (docs/nginx-scale-out.conf). Port 0 stays 0: every worker takes an ephemeral port (tests).
 */
export type WorkerPlan = { index: number; port: number; recordsPort: number };

/** The most workers one machine is given: each holds two event loops and ten database connections. */
const MAX_WORKERS = 16;

/**
 * Reads `--workers N` (or `--workers=N`) from the arguments. Returns 1 when absent, the number
 * when valid, and a message saying what is wrong otherwise (the caller prints it and exits).
 */
export function parseWorkers(args: readonly string[]): number | string {
  let raw: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--workers') raw = args[i + 1] ?? '';
    else if (arg.startsWith('--workers=')) raw = arg.slice('--workers='.length);
  }
  if (raw === undefined) return 1;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_WORKERS) {
    return `--workers must be a whole number from 1 to ${MAX_WORKERS} (got "${raw}")`;
  }
  return Number(raw);
}

/**
 * Why several workers cannot run here, or null when they can: every worker must reach the same
 * PostgreSQL (sessions, idempotency journal, records), since the embedded database belongs to
 * one process. With UPSTREAM_URL the workers are BFFs alone, sharing their tables there.
 */
export function workersRefused(workers: number, env: { DATABASE_URL?: string }): string | null {
  if (workers === 1) return null;
  if (!env.DATABASE_URL) {
    return (
      '--workers needs DATABASE_URL (PostgreSQL): the embedded database belongs to one process. ' +
      'Set DATABASE_URL=postgres://… or run without --workers.'
    );
  }
  return null;
}

export function planWorkers(workers: number, port: number, recordsPort: number): WorkerPlan[] {
  return Array.from({ length: workers }, (_, index) => ({
    index,
    port: port === 0 ? 0 : port + 2 * index,
    recordsPort: recordsPort === 0 ? 0 : recordsPort + 2 * index,
  }));
}
