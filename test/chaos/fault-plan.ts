import { seededRng, type Rng } from './prng';

/** Every kind of fault the matrix injects; the table reports how many of each were applied. */
export const FAULT_KINDS = [
  'drop-request',
  'drop-answer',
  'cut-answer',
  'delay',
  'reset',
  'server-error',
  'rate-limit',
  'token-expiry',
  'kill-bff',
  'kill-records',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * Where a fault strikes: `edge` is tablet → BFF record traffic (/api/v1), `upstream` is BFF →
 * records service, `uploads` is the tablet's photo uploads to the BFF (tus at /api/uploads: POST
 * create, HEAD offset, PATCH bytes), which pass the same edge proxy but have a deck of their own.
 */
export type Side = 'edge' | 'upstream' | 'uploads';

/**
 * The kinds the uploads deck deals (every one at least once per seed with photos): a kill is
 * left to the record traffic, whose kills strike while photos are being sent too.
 */
export const PHOTO_FAULT_KINDS = [
  'drop-request',
  'drop-answer',
  'delay',
  'reset',
  'server-error',
  'rate-limit',
  'token-expiry',
] as const satisfies readonly FaultKind[];

export type Fault =
  /** The request never reaches the server: the connection is destroyed on arrival. */
  | { kind: 'drop-request' }
  /** The server answers (so it committed); the answer is lost with the connection. */
  | { kind: 'drop-answer' }
  /**
   * The server answers (so it committed); its status and headers arrive, then the connection
   * drops halfway through the body.
   */
  | { kind: 'cut-answer' }
  /** The request is held before it goes on, or the answer before it comes back. */
  | { kind: 'delay'; ms: number; stage: 'request' | 'answer' }
  /** The connection breaks halfway through the request body. */
  | { kind: 'reset' }
  /** A gateway error: before the server saw the request, or in place of its (committed) answer. */
  | { kind: 'server-error'; status: number; delivered: boolean }
  | { kind: 'rate-limit'; retryAfterS: number }
  /** The upstream says the token has expired (upstream side only): the user must sign in again. */
  | { kind: 'token-expiry' }
  /** SIGKILL the process `afterMs` after the request went on, or as its upstream answer arrives. */
  | { kind: 'kill-bff' | 'kill-records'; after: number | 'answer' };

type Card = {
  side: Side;
  at: number;
  fault: Fault;
  /** The methods it may strike (null: any). */
  methods: readonly string[] | null;
  /** Times it was dealt to a request it could not strike (see FaultPlan.missed). */
  misses: number;
};

export type PlanOptions = {
  /** Saves the seed's field work makes: each card is due within about that many requests. */
  saves: number;
  /** The engine's per-request timeout: a long edge delay outlasts it. */
  engineTimeoutMs: number;
  /** The BFF's upstream response timeout: a long upstream delay outlasts it. */
  upstreamTimeoutMs: number;
  /** Photos the seed takes (0: no uploads deck); each makes at least a POST and a PATCH. */
  photos?: number;
};

export type FaultPlan = {
  readonly seed: number;
  /**
   * The fault for the next request on `side` (each call counts one request), or null. A fault
   * that `applicable` refuses (a kill while that process is down) stays for a later request.
   */
  next(side: Side, method: string, applicable: (fault: Fault) => boolean): Fault | null;
  /**
   * The fault `next` dealt could not strike that request (it failed before the point where the
   * fault acts: no answer came back to drop or to kill on, the process was down already). A card
   * goes back into the deck, due again at once; an ambient fault is simply not counted.
   */
  missed(fault: Fault): void;
  /** Planned faults not dealt yet. */
  pending(): number;
  /** Requests seen so far on each side while faults were on. */
  seen(): Record<Side, number>;
  /**
   * The faults dealt, in order: `edge#12 POST drop-answer @3.2s` (request number, seconds in);
   * a card dealt again after it missed says how often it missed (`… (missed 3)`).
   */
  readonly dealt: string[];
  /** No more faults from now on (the calm phase). */
  off(): void;
};

/**
 * The faults of one seed: a deck of cards (every cheap kind at least once per seed, a kill of the
 * BFF and of the records service each in about half of the seeds), each due from a random
 * request number on its side, plus ambient faults at a seeded rate. The same seed deals the same
 * deck; which request gets a card depends on timing too (the engine sends concurrently), but
 * whether a card strikes does not: one that could not act on its request (say, a kill on the
 * answer of a request that found the records service down) is dealt again to a later request, so
 * every card of the deck strikes while the seed's requests last, however fast or slow they come.
 */
export function faultPlan(seed: number, timing: PlanOptions): FaultPlan {
  const rng = seededRng(seed).fork('faults');
  const cards: Card[] = [];
  // Every card is due early enough to be dealt before the queue empties; kills and the token
  // expiry in the first half, so the work after them is large.
  const full = Math.max(4, Math.floor(timing.saves * 0.8));
  const add = (side: Side, fault: Fault, postOnly = false, window = full) =>
    cards.push({
      side,
      at: rng.between(1, window),
      fault,
      methods: postOnly ? ['POST'] : null,
      misses: 0,
    });
  const delay = (limitMs: number): Fault => ({
    kind: 'delay',
    // One delay in three outlasts the waiting side's timeout: the answer comes after it gave up.
    ms: rng.chance(1 / 3) ? limitMs + 500 : rng.between(20, 400),
    stage: rng.chance(0.5) ? 'request' : 'answer',
  });
  const serverError = (): Fault => ({
    kind: 'server-error',
    status: rng.pick([500, 502, 503, 504]),
    delivered: rng.chance(0.5),
  });

  for (let i = rng.between(1, 2); i > 0; i -= 1) add('edge', { kind: 'drop-request' });
  for (let i = rng.between(1, 2); i > 0; i -= 1) add('edge', { kind: 'drop-answer' }, true);
  for (let i = rng.between(1, 2); i > 0; i -= 1) add('edge', delay(timing.engineTimeoutMs));
  for (let i = rng.between(1, 2); i > 0; i -= 1) add('edge', { kind: 'reset' });
  add('edge', serverError());
  add('edge', { kind: 'rate-limit', retryAfterS: 1 });
  // Upstream: the faults that leave the BFF not knowing whether a create happened.
  for (let i = rng.between(1, 3); i > 0; i -= 1) add('upstream', { kind: 'drop-answer' }, true);
  add('upstream', { ...serverError(), delivered: true } as Fault, true);
  add('upstream', delay(timing.upstreamTimeoutMs), rng.chance(0.5));
  add('upstream', { kind: 'token-expiry' }, false, Math.ceil(full / 2));
  add(rng.chance(0.5) ? 'edge' : 'upstream', { kind: 'cut-answer' }, true);
  if (rng.chance(0.5)) {
    add(
      rng.chance(0.5) ? 'edge' : 'upstream',
      { kind: 'kill-bff', after: rng.chance(0.5) ? 'answer' : rng.between(0, 40) },
      true,
      Math.ceil(full / 2),
    );
  }
  if (rng.chance(0.5)) {
    add(
      'upstream',
      { kind: 'kill-records', after: rng.chance(0.5) ? 'answer' : rng.between(0, 40) },
      true,
      Math.ceil(full / 2),
    );
  }
  const ambientRate = rng.next() * 0.12;
  // The uploads deck comes from its own fork, so the record traffic's deck and ambient faults of
  // a seed are the same as before photos were added (seeds chosen for their record faults keep
  // them).
  const uploads = uploadsDeck(seededRng(seed).fork('photo-faults'), timing.photos ?? 0);
  cards.push(...uploads.cards);
  cards.sort((a, b) => a.at - b.at);
  const ambient = (r: Rng): Fault | null => {
    if (!r.chance(ambientRate)) return null;
    const kind = r.pick(['drop-request', 'drop-answer', 'delay', 'reset', 'server-error'] as const);
    if (kind === 'delay') return { kind, ms: r.between(20, 300), stage: 'answer' };
    if (kind === 'server-error') return serverError();
    return { kind };
  };
  const counters: Record<Side, number> = { edge: 0, upstream: 0, uploads: 0 };
  const ambientRng = {
    edge: rng.fork('edge'),
    upstream: rng.fork('upstream'),
    uploads: rng.fork('uploads'),
  };
  const ambientFor = (side: Side, r: Rng) => (side === 'uploads' ? uploads.ambient(r) : ambient(r));
  let enabled = true;
  const lines: Array<{ text: string; missed: boolean }> = [];
  // Cards dealt to a request still under way, by the fault object handed out (a copy per deal),
  // with their line: missed() finds them.
  const inPlay = new Map<Fault, { card: Card; line: { missed: boolean } }>();
  const started = Date.now();
  const deal = (side: Side, method: string, f: Fault, card?: Card) => {
    const detail = 'after' in f ? ` after ${f.after}` : 'ms' in f ? ` ${f.stage} ${f.ms}ms` : '';
    const misses = card && card.misses > 0 ? ` (missed ${card.misses})` : '';
    const line = {
      text: `${side}#${counters[side]} ${method} ${f.kind}${detail} @${((Date.now() - started) / 1000).toFixed(1)}s${misses}`,
      missed: false,
    };
    lines.push(line);
    if (card) inPlay.set(f, { card, line });
    return f;
  };

  return {
    seed,
    next(side, method, applicable) {
      if (!enabled) return null;
      counters[side] += 1;
      const i = cards.findIndex(
        (c) =>
          c.side === side &&
          c.at <= counters[side] &&
          (c.methods === null || c.methods.includes(method)) &&
          applicable(c.fault),
      );
      if (i >= 0) {
        const [card] = cards.splice(i, 1);
        return deal(side, method, { ...card.fault }, card);
      }
      const f = ambientFor(side, ambientRng[side]);
      return f && applicable(f) ? deal(side, method, f) : null;
    },
    missed(fault) {
      const played = inPlay.get(fault);
      if (!played) return;
      inPlay.delete(fault);
      const { card } = played;
      played.line.missed = true;
      card.misses += 1;
      // Its `at` has passed already: it is due on the next request that fits, ahead of later cards.
      const at = cards.findIndex((c) => c.at > card.at);
      cards.splice(at < 0 ? cards.length : at, 0, card);
    },
    pending: () => cards.length,
    seen: () => ({ ...counters }),
    get dealt() {
      return lines.filter((l) => !l.missed).map((l) => l.text);
    },
    off() {
      enabled = false;
    },
  };
}

/**
 * The photo uploads' faults: every kind of PHOTO_FAULT_KINDS at least once, each card due within
 * the first `photos` upload requests (a seed's photos make at least twice that many, so every
 * card is dealt), plus ambient faults at a seeded rate. Which tus request each can strike:
 * - drop-request, delay, 5xx before the BFF, 429, 401: any (POST, HEAD, PATCH);
 * - drop-answer: one on a creation (the BFF made the upload; the tablet does not know its URL)
 *   and one on bytes (the BFF stored them; the tablet does not know its offset);
 * - reset: bytes only (the connection breaks halfway through a PATCH body);
 * - 5xx after the BFF acted: a PATCH whose bytes were stored, answered as a gateway error.
 */
function uploadsDeck(
  rng: Rng,
  photos: number,
): { cards: Card[]; ambient: (r: Rng) => Fault | null } {
  if (photos === 0) return { cards: [], ambient: () => null };
  const window = Math.max(2, photos);
  const cards: Card[] = [];
  const add = (fault: Fault, methods: readonly string[] | null = null) =>
    cards.push({ side: 'uploads', at: rng.between(1, window), fault, methods, misses: 0 });
  const status = () => rng.pick([500, 502, 503, 504]);
  add({ kind: 'drop-request' });
  add({ kind: 'drop-answer' }, ['POST']);
  add({ kind: 'drop-answer' }, ['PATCH']);
  add({ kind: 'reset' }, ['PATCH']);
  if (rng.chance(0.5)) add({ kind: 'reset' }, ['PATCH']);
  add({ kind: 'delay', ms: rng.between(20, 1500), stage: rng.chance(0.5) ? 'request' : 'answer' });
  add({ kind: 'server-error', status: status(), delivered: false });
  add({ kind: 'server-error', status: status(), delivered: true }, ['PATCH']);
  add({ kind: 'rate-limit', retryAfterS: 1 });
  add({ kind: 'token-expiry' });
  const rate = rng.next() * 0.1;
  const ambient = (r: Rng): Fault | null => {
    if (!r.chance(rate)) return null;
    const kind = r.pick(['drop-request', 'drop-answer', 'delay', 'reset', 'server-error'] as const);
    if (kind === 'delay') return { kind, ms: r.between(20, 300), stage: 'answer' };
    if (kind === 'server-error')
      return { kind, status: r.pick([500, 502, 503, 504]), delivered: r.chance(0.5) };
    return { kind };
  };
  return { cards, ambient };
}
