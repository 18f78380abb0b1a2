/**
 * A Chromium performance trace of one step of a bench page (CDP Tracing, the DevTools timeline's
 * categories), and its long tasks taken apart: for each of the longest main-thread tasks, where
 * its time went (scripts by function and file, style, layout, paint, compositing, GC). A CPU
 * profile alone shows scripts only; a map's long task can be layout or the compositor's commit.
 */
import { writeFile } from 'node:fs/promises';
import type { CDPSession, Page } from 'playwright-core';

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink.user_timing',
  'v8',
  // MAP_TRACE_CPU=1: V8's sampling profiler on every thread (the page's and its workers'), for
  // where a thread's script time goes function by function (DevTools' Performance panel shows it).
  ...(process.env.MAP_TRACE_CPU === '1' ? ['disabled-by-default-v8.cpu_profiler'] : []),
  // MAP_TRACE_IDB=1: IndexedDB's backend in the browser process (its transactions, puts and
  // commits), where a pull's writes go once the page's thread has handed them over.
  ...(process.env.MAP_TRACE_IDB === '1' ? ['IndexedDB', 'leveldb'] : []),
  // MAP_TRACE_MORE=cat1,cat2: any other categories. `cc,blink,toplevel` name what a long "Commit"
  // is: panning 20,000 sites, it was Canvas2DResourceProvider::ProduceCanvasResource, the sites'
  // canvas copied into fresh shared memory for the compositor (68-107 ms at 4x throttle).
  ...(process.env.MAP_TRACE_MORE ? process.env.MAP_TRACE_MORE.split(',') : []),
];

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; name?: string } & Record<string, unknown>;
};

export type PageTrace = {
  /** Writes the trace to `file`; returns its longest main-thread tasks taken apart. */
  stop(file: string): Promise<string>;
  /** Writes the trace to `file`; returns how busy each thread of every process was. */
  stopThreads(file: string): Promise<string>;
};

/** Starts tracing `page`; `stop(file)` writes the trace there and returns its summary. */
export async function startTrace(page: Page): Promise<PageTrace> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordAsMuchAsPossible' },
  });
  const end = async (file: string): Promise<TraceEvent[]> => {
    const done = new Promise<{ stream?: string }>((resolve) =>
      cdp.once('Tracing.tracingComplete', resolve),
    );
    await cdp.send('Tracing.end');
    const { stream } = await done;
    const text = await readStream(cdp, stream!);
    await writeFile(file, text);
    await cdp.detach();
    return (JSON.parse(text) as { traceEvents: TraceEvent[] }).traceEvents;
  };
  return {
    stop: async (file) => summarise(await end(file)),
    stopThreads: async (file) => threadsBusy(await end(file)),
  };
}

async function readStream(cdp: CDPSession, handle: string): Promise<string> {
  const parts: string[] = [];
  for (;;) {
    const { data, eof, base64Encoded } = await cdp.send('IO.read', { handle });
    parts.push(base64Encoded ? Buffer.from(data, 'base64').toString() : data);
    if (eof) break;
  }
  await cdp.send('IO.close', { handle });
  return parts.join('');
}

/** What an event inside a task is, for the breakdown. */
function kindOf(e: TraceEvent): string {
  const data = e.args?.data ?? {};
  if (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.compile') {
    const url = String(data.url ?? '').replace(/^.*\//, '');
    return `script ${String(data.functionName ?? '') || '(anon)'} ${url}:${String(data.lineNumber ?? '')}`;
  }
  if (e.name === 'TimerFire') return 'script (timer)';
  if (e.name === 'FireAnimationFrame') return 'script (animation frame)';
  if (e.name === 'EventDispatch') return `event ${String(data.type ?? '')}`;
  return e.name;
}

/**
 * The main thread (CrRendererMain) of the page's renderer: its RunTask events over 50 ms, the
 * longest ten, each with the time of its biggest direct and nested parts.
 */
function summarise(events: TraceEvent[]): string {
  const main = events.find(
    (e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.ph === 'M',
  );
  if (!main) return 'no renderer main thread in the trace';
  const onMain = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur)
    .sort((a, b) => a.ts - b.ts);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.dur! > 50_000);
  const lines = [`${tasks.length} tasks over 50 ms on the main thread`];
  for (const task of [...tasks].sort((a, b) => b.dur! - a.dur!).slice(0, 10)) {
    const end = task.ts + task.dur!;
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= end);
    // Self time of each kind: an event's duration less its children's.
    const self = new Map<string, number>();
    const stack: TraceEvent[] = [];
    for (const e of inside) {
      while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur! <= e.ts)
        stack.pop();
      const parent = stack[stack.length - 1];
      if (parent) self.set(kindOf(parent), (self.get(kindOf(parent)) ?? 0) - e.dur!);
      self.set(kindOf(e), (self.get(kindOf(e)) ?? 0) + e.dur!);
      stack.push(e);
    }
    const parts = [...self]
      .filter(([, us]) => us > 2_000)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([k, us]) => `${(us / 1000).toFixed(0)} ms ${k}`);
    lines.push(
      `  ${(task.dur! / 1000).toFixed(0)} ms at ${((task.ts - tasks[0].ts) / 1000).toFixed(0)} ms: ${parts.join('; ')}`,
    );
  }
  return lines.join('\n');
}

/**
 * Each named thread's busy time: the sum of its outermost complete events (a task and what runs
 * in it counted once), busiest first, with the kinds of work that took most of it.
 */
function threadsBusy(events: TraceEvent[]): string {
  const names = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name')
      names.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur) continue;
    const key = `${e.pid}:${e.tid}`;
    const list = byThread.get(key);
    if (list) list.push(e);
    else byThread.set(key, [e]);
  }
  const rows: { name: string; busy: number; kinds: Map<string, number> }[] = [];
  for (const [key, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    let busy = 0;
    let until = -1;
    const kinds = new Map<string, number>();
    for (const e of list) {
      if (e.ts + e.dur! <= until) {
        // One level inside an outermost event: what the task did.
        continue;
      }
      busy += e.dur!;
      until = e.ts + e.dur!;
    }
    // The second level: events directly inside the outermost ones, by kind.
    let outer: TraceEvent | null = null;
    let innerUntil = -1;
    for (const e of list) {
      if (!outer || e.ts >= outer.ts + outer.dur!) {
        outer = e;
        innerUntil = -1;
        continue;
      }
      if (e.ts + e.dur! <= innerUntil) continue;
      innerUntil = e.ts + e.dur!;
      kinds.set(kindOf(e), (kinds.get(kindOf(e)) ?? 0) + e.dur!);
    }
    rows.push({ name: names.get(key) ?? key, busy, kinds });
  }
  return rows
    .filter((r) => r.busy > 100_000)
    .sort((a, b) => b.busy - a.busy)
    .slice(0, 12)
    .map(
      (r) =>
        `  ${r.name}: ${(r.busy / 1000).toFixed(0)} ms busy; ` +
        [...r.kinds]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([k, us]) => `${(us / 1000).toFixed(0)} ms ${k}`)
          .join('; '),
    )
    .join('\n');
}
