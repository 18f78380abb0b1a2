import { signedInHere } from '../../src/client/lib/identity';
import { heldIds } from '../../src/client/sync/outbox-graph';
import type { Entity } from '../../src/shared';
import {
  BFF_UPSTREAM_TIMEOUT_MS,
  noFaults,
  type ChaosStack,
  type FaultCounts,
} from './chaos-stack';
import { comparePhotos, type PhotoCounts } from './compare-photos';
import { compareRun, type RunCounts } from './compare-run';
import { faultPlan } from './fault-plan';
import { planPhotos, type PhotoLoad } from './photo-plan';
import { startPhotoQueue, type PhotoQueue } from './photo-queue';
import { seededRng } from './prng';
import { buildScenario, type StepContext } from './scenario';
import { ENGINE_TIMEOUT_MS, openTablet, type Tablet } from './tablet';

export type SeedResult = RunCounts & {
  seed: number;
  faults: FaultCounts;
  /** The photos' verdict (compare-photos), and the faults that struck photo uploads. */
  photos: PhotoCounts;
  photoFaults: FaultCounts;
  /**
   * Steps of the field work that failed, and failed sign-ins (in `details`): the seed did not do
   * what it says, so it fails, whatever the comparison finds.
   */
  problems: number;
  /** Times the user had to sign in again (a token expired mid-queue). */
  signIns: number;
  seconds: number;
  /** The faults dealt, in order (see FaultPlan.dealt), and when each phase ended. */
  timeline: string[];
  /** Requests that passed each fault proxy while the faults were on, and faults never dealt. */
  requests: { edge: number; upstream: number; uploads: number; undealt: number };
  /** Seconds the calm phase took to empty the queue (leases of killed requests show here). */
  calmSeconds: number;
};

export type SeedOptions = {
  /** Sites of field work per seed (each with 2–3 collections, 2–3 pools each, tests). */
  sites: number;
  /** How long the faults may go on after the last save (ms of time with both servers up). */
  chaosMs: number;
  /** How long the queue may take to empty once the faults stopped (ms): what is left is stuck. */
  calmMs: number;
  /** How many photos the tablet takes (photo-plan). */
  photos: PhotoLoad;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Only the user can move what is left: parked or conflicting entries and those held behind them. */
async function waitsForUser(tablet: Tablet): Promise<boolean> {
  const entries = await tablet.db.outbox.toArray();
  const held = heldIds(entries);
  return entries.every((e) => e.state === 'parked' || e.state === 'conflict' || held.has(e.id));
}

/**
 * Waits until only the user could move what is left in the queue (nothing, or parked entries and
 * those held behind them) and the photo queue has sent every photo whose record has a server id,
 * signing in again whenever the engine pauses for it. Gives up after `budgetMs` of time during which the servers were up and nobody was signing in: a restart on a
 * loaded machine is slow, and that is not the engine's time. While `extend` says so, it goes on
 * past that budget (still bounded). True when it settled.
 */
async function settle(
  tablet: Tablet,
  photos: PhotoQueue,
  budgetMs: number,
  signIn: () => Promise<void>,
  busy: () => boolean,
  extend: () => boolean = () => false,
): Promise<boolean> {
  let spent = 0;
  let last = Date.now();
  // However slow the restarts, a server that never comes back must not hang the run.
  const hardStop = last + budgetMs + 300_000;
  const tick = () => {
    const now = Date.now();
    if (!busy()) spent += now - last;
    last = now;
    return (spent < budgetMs || extend()) && now < hardStop;
  };
  for (;;) {
    let done = false;
    const settled = tablet.engine.settled().then(() => {
      done = true;
    });
    while (!done) {
      await Promise.race([settled, sleep(100)]);
      if (!tick()) return false;
    }
    if (tablet.engine.getStatus().paused) await signIn();
    else if ((await waitsForUser(tablet)) && (await photos.idle())) return true;
    else await sleep(100);
    if (!tick()) return false;
  }
}

/**
 * One seed of the fault matrix: a fresh tablet does the seed's field work (saves, edits, deletes,
 * a pull) while the seed's faults strike both network edges; the user signs in again whenever
 * asked. Then the faults stop, the queue is given `calmMs` to empty, and tablet and server are
 * compared record by record.
 */
export async function runSeed(
  stack: ChaosStack,
  seed: number,
  options: SeedOptions,
): Promise<SeedResult> {
  const started = Date.now();
  // When each phase ended, in seconds from the seed's start: where a slow seed spent its time.
  const phases: string[] = [];
  const mark = (phase: string) =>
    phases.push(`${phase} @${((Date.now() - started) / 1000).toFixed(1)}s`);
  const rng = seededRng(seed);
  const faults = noFaults();
  await stack.ready();
  stack.restarts(); // the starts before this seed are not its own
  mark('servers ready');
  const session = await stack.signIn();
  // As the signed-in app does: what asks who is signed in (may this user delete a synced record?)
  // reads this page's identity, never the browser's localStorage, which Node has not.
  const signedOut = signedInHere(session.info);
  mark('signed in');
  const tablet = openTablet(
    `chaos-${seed}-${crypto.randomUUID()}`,
    stack.edgeUrl,
    session.cookie,
    rng.fork('jitter'),
  );
  const scenario = buildScenario(seed, rng.fork('scenario'), options.sites);
  // Its own fork: the records' field work of a seed is the same with or without photos.
  const planned = planPhotos(rng.fork('photos'), scenario.records, options.photos);
  const pauseRng = rng.fork('pauses');
  const problems: string[] = [];

  let signIns = 0;
  let signingIn: Promise<void> | null = null;
  const signIn = () => {
    signingIn ??= (async () => {
      const next = await stack.signIn();
      tablet.setCookie(next.cookie);
      signIns += 1;
      tablet.engine.resume();
    })().finally(() => {
      signingIn = null;
    });
    return signingIn;
  };
  const signInFailed = (err: unknown) => problems.push(`sign-in failed: ${String(err)}`);
  // The user signs in again when the app asks (the queue paused on reauth_required).
  const unsubscribe = tablet.engine.subscribe((s) => {
    if (s.paused) signIn().catch(signInFailed);
  });
  // The photo queue asks too (a 401 on an upload); once signed in, it looks again.
  const photos = startPhotoQueue(tablet, stack.edgeUrl, rng.fork('photo-jitter'), () => {
    signIn()
      .then(() => photos.kick())
      .catch(signInFailed);
  });
  /** Scenario key → the step after which its record was saved. */
  const savedAt = new Map<string, number>();
  let toTake = [...planned];
  /** Takes the photos due after step `i` (all that are left when `i` is null). */
  const takePhotos = async (i: number | null) => {
    const due = toTake.filter((p) => {
      const at = savedAt.get(p.key);
      return at !== undefined && (i === null || at + p.after <= i);
    });
    toTake = toTake.filter((p) => !due.includes(p));
    for (const p of due) await photos.take(p, ctx.made.get(p.key)!);
  };

  const created: Array<{ entity: Entity; localId: string }> = [];
  const deleted = new Set<string>();
  const ctx: StepContext = {
    db: tablet.db,
    agencyId: session.agencyId,
    made: new Map(),
    created,
    deleted,
    pull: () => void tablet.engine.pull().catch(() => undefined),
  };
  const plan = faultPlan(seed, {
    saves: scenario.steps.length,
    engineTimeoutMs: ENGINE_TIMEOUT_MS,
    upstreamTimeoutMs: BFF_UPSTREAM_TIMEOUT_MS,
    photos: planned.length,
  });
  const photoFaults = noFaults();
  stack.setPlan(plan, faults, photoFaults);
  try {
    for (const [i, step] of scenario.steps.entries()) {
      try {
        await step.run(ctx);
        for (const key of ctx.made.keys()) if (!savedAt.has(key)) savedAt.set(key, i);
        await takePhotos(i);
      } catch (err) {
        problems.push(
          `step "${step.label}" failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      // As the app does after every save.
      tablet.engine.requestSync('save');
      await sleep(pauseRng.int(60));
    }
    await takePhotos(null);
    mark('field work saved');
    const busy = () => !stack.up() || signingIn !== null;
    // The faults stay on while the deck still holds cards and the queue still has work, however
    // slowly a loaded machine gets through it: every planned fault strikes, not only those a
    // fast enough run reaches within chaosMs (the coverage check counts on it).
    const settledUnderFaults = await settle(
      tablet,
      photos,
      options.chaosMs,
      signIn,
      busy,
      () => plan.pending() > 0,
    );
    mark(`faults off (${settledUnderFaults ? 'settled' : 'time up'})`);

    // Calm: no more faults; both servers up; "Sync now" until the queue is empty or the time is up.
    const requests = { ...plan.seen(), undealt: plan.pending() };
    plan.off();
    stack.setPlan(null, faults, photoFaults);
    const calmFrom = Date.now();
    await stack.ready();
    if (tablet.engine.getStatus().paused) await signIn();
    tablet.engine.requestSync('manual');
    photos.kick();
    await settle(tablet, photos, options.calmMs, signIn, busy);
    mark('calm settled');
    const calmSeconds = (Date.now() - calmFrom) / 1000;
    tablet.engine.stop();
    await photos.stop();
    // Let in-flight sends finish writing their outcome before the tablet is read.
    await Promise.race([tablet.engine.settled(), sleep(ENGINE_TIMEOUT_MS + 1000)]);
    const counts = await compareRun({
      tablet,
      created,
      deleted,
      siteCodes: scenario.siteCodes,
      read: (p) => stack.readRecords(p),
    });
    counts.details.unshift(...problems);
    const photoCounts = await comparePhotos({
      tablet,
      taken: photos.taken,
      read: (p) => stack.readBff(p),
    });
    mark('compared');
    const timeline = [...plan.dealt, ...phases, ...stack.restarts().map((r) => `restart: ${r}`)];
    return {
      seed,
      ...counts,
      faults,
      photos: photoCounts,
      photoFaults,
      problems: problems.length,
      signIns,
      timeline,
      requests,
      seconds: (Date.now() - started) / 1000,
      calmSeconds,
    };
  } finally {
    stack.setPlan(null, noFaults());
    signedOut();
    unsubscribe();
    await photos.stop();
    await tablet.dispose();
  }
}
