import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds used so far, by kind of process: Chromium's, by process type, and Node's. */
export type CpuSnapshot = Record<string, number>;

export const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/**
 * A process's CPU clock ticks from /proc/<pid>/stat: its own user and system time, and those of
 * the children it has reaped (utime, stime, cutime, cstime). The fields are counted after the
 * command name, which may hold spaces and sits in parentheses.
 */
export function statTimes(pid: string): [number, number, number, number] {
  const fields = readFileSync(`/proc/${pid}/stat`, 'latin1').split(')').at(-1)!.trim().split(' ');
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  return [utime, stime, cutime, cstime];
}

/** The kind of a process from its command line, or null for one the bench does not count. */
function kindOf(args: string[]): string | null {
  if (args[0].includes('chrom')) {
    const type = args.find((a) => a.startsWith('--type='))?.slice(7);
    const sub = args
      .find((a) => a.startsWith('--utility-sub-type='))
      ?.split('.')
      .at(-1);
    // The browser process runs IndexedDB's backend; the renderer runs the page and the app.
    return `chromium ${sub ?? type ?? 'browser'}`;
  }
  return /(^|\/)node$/.test(args[0]) ? 'node (servers and bench)' : null;
}

/**
 * CPU seconds (user + system) of every Chromium and Node process, summed by kind, read from
 * /proc. Null where there is no /proc (the figures are Linux-only, like this machine).
 */
export function cpuSnapshot(): CpuSnapshot | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  const out: CpuSnapshot = {};
  for (const pid of pids) {
    try {
      // Chromium rewrites its processes' titles: their arguments are then one space-separated string.
      const args = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split(/[\0 ]/);
      const kind = kindOf(args);
      if (!kind) continue;
      const [utime, stime] = statTimes(pid);
      out[kind] = (out[kind] ?? 0) + (utime + stime) / TICKS_PER_SECOND;
    } catch {
      // The process ended while being read.
    }
  }
  return out;
}

/** Milliseconds of CPU per request, by kind, between two snapshots. */
export function cpuPerRequest(
  from: CpuSnapshot,
  to: CpuSnapshot,
  requests: number,
): Record<string, number> {
  return Object.fromEntries(
    Object.keys(to).map((k) => [k, ((to[k] - (from[k] ?? 0)) * 1000) / requests]),
  );
}
