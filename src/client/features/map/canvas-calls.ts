/**
 * The 2D canvas calls Leaflet's canvas renderer makes to draw circle markers (leaflet's
 * Canvas.js: `_update`, `_clear`, `_draw`, `_updateCircle`, `_fillStroke`), recorded on the page
 * as numbers and played on a canvas in a worker (sites-canvas.worker.ts). Two more calls are the
 * worker canvas's own: `target` (which of its two canvases the calls draw on) and `size` (the
 * canvas's pixel size, which the page can no longer set once the canvas is the worker's).
 */
const CALL = {
  target: 0,
  size: 1,
  drawn: 2,
  save: 3,
  restore: 4,
  setTransform: 5,
  translate: 6,
  scale: 7,
  clearRect: 8,
  clearAll: 9,
  beginPath: 10,
  rect: 11,
  clip: 12,
  arc: 13,
  moveTo: 14,
  lineTo: 15,
  closePath: 16,
  fill: 17,
  stroke: 18,
  setLineDash: 19,
  globalAlpha: 20,
  fillStyle: 21,
  strokeStyle: 22,
  lineWidth: 23,
  lineCap: 24,
  lineJoin: 25,
} as const;

/** Calls recorded in one task: numbers (a call, then its arguments), strings by index. */
export type CallBatch = { calls: Float64Array; strings: string[] };

/** What the worker says: the calls up to `drawn(seq)` are on its canvas and shown. */
export type DrawnMessage = { type: 'drawn'; seq: number };

/** The page's first message to the worker: its two canvases. */
export type CanvasesMessage = { type: 'canvases'; canvases: OffscreenCanvas[] };

/**
 * Stands in for a CanvasRenderingContext2D where Leaflet draws (only the members it uses on a
 * canvas of circle markers): every call is recorded, and the calls of one task go to `send` in
 * one batch at its end (a microtask), in the order made.
 */
export class CallRecorder {
  private calls: number[] = [];
  private strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  private scheduled = false;

  constructor(private readonly send: (batch: CallBatch) => void) {}

  /**
   * Each call's numbers are pushed as `push`'s arguments: at a move's end every circle makes a
   * dozen calls on the page's thread, and an array of them each (a rest parameter) was garbage.
   * The batch goes at the end of the task.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(this.flush);
  }

  private string(s: string): number {
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.stringIds.set(s, id);
    }
    return id;
  }

  readonly flush = (): void => {
    this.scheduled = false;
    if (this.calls.length === 0) return;
    const batch = { calls: Float64Array.from(this.calls), strings: this.strings };
    this.calls = [];
    this.strings = [];
    this.stringIds.clear();
    this.send(batch);
  };

  target(canvas: number): void {
    this.calls.push(CALL.target, canvas);
    this.schedule();
  }
  size(width: number, height: number): void {
    this.calls.push(CALL.size, width, height);
    this.schedule();
  }
  drawn(seq: number): void {
    this.calls.push(CALL.drawn, seq);
    this.schedule();
  }
  clearAll(): void {
    this.calls.push(CALL.clearAll);
    this.schedule();
  }
  save(): void {
    this.calls.push(CALL.save);
    this.schedule();
  }
  restore(): void {
    this.calls.push(CALL.restore);
    this.schedule();
  }
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void {
    this.calls.push(CALL.setTransform, a, b, c, d, e, f);
    this.schedule();
  }
  translate(x: number, y: number): void {
    this.calls.push(CALL.translate, x, y);
    this.schedule();
  }
  scale(x: number, y: number): void {
    this.calls.push(CALL.scale, x, y);
    this.schedule();
  }
  clearRect(x: number, y: number, w: number, h: number): void {
    this.calls.push(CALL.clearRect, x, y, w, h);
    this.schedule();
  }
  beginPath(): void {
    this.calls.push(CALL.beginPath);
    this.schedule();
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.calls.push(CALL.rect, x, y, w, h);
    this.schedule();
  }
  clip(): void {
    this.calls.push(CALL.clip);
    this.schedule();
  }
  arc(x: number, y: number, r: number, start: number, end: number, ccw = false): void {
    this.calls.push(CALL.arc, x, y, r, start, end, ccw ? 1 : 0);
    this.schedule();
  }
  moveTo(x: number, y: number): void {
    this.calls.push(CALL.moveTo, x, y);
    this.schedule();
  }
  lineTo(x: number, y: number): void {
    this.calls.push(CALL.lineTo, x, y);
    this.schedule();
  }
  closePath(): void {
    this.calls.push(CALL.closePath);
    this.schedule();
  }
  fill(rule: CanvasFillRule = 'nonzero'): void {
    this.calls.push(CALL.fill, rule === 'evenodd' ? 1 : 0);
    this.schedule();
  }
  stroke(): void {
    this.calls.push(CALL.stroke);
    this.schedule();
  }
  setLineDash(segments: readonly number[]): void {
    this.calls.push(CALL.setLineDash, segments.length, ...segments);
    this.schedule();
  }
  set globalAlpha(value: number) {
    this.calls.push(CALL.globalAlpha, value);
    this.schedule();
  }
  set fillStyle(value: string) {
    this.calls.push(CALL.fillStyle, this.string(value));
    this.schedule();
  }
  set strokeStyle(value: string) {
    this.calls.push(CALL.strokeStyle, this.string(value));
    this.schedule();
  }
  set lineWidth(value: number) {
    this.calls.push(CALL.lineWidth, value);
    this.schedule();
  }
  set lineCap(value: CanvasLineCap) {
    this.calls.push(CALL.lineCap, this.string(value));
    this.schedule();
  }
  set lineJoin(value: CanvasLineJoin) {
    this.calls.push(CALL.lineJoin, this.string(value));
    this.schedule();
  }
}

/** The worker's side: its canvases, and which one calls draw on. */
export type CallTargets = {
  canvases: OffscreenCanvas[];
  contexts: OffscreenCanvasRenderingContext2D[];
  current: number;
};

/** Plays one batch on the targets; `drawn(seq)` is called where the page asked to be told. */
export function playCalls(
  batch: CallBatch,
  targets: CallTargets,
  drawn: (seq: number) => void,
): void {
  const c = batch.calls;
  const s = batch.strings;
  let ctx = targets.contexts[targets.current];
  let i = 0;
  while (i < c.length) {
    const call = c[i++];
    switch (call) {
      case CALL.target:
        targets.current = c[i++];
        ctx = targets.contexts[targets.current];
        break;
      case CALL.size: {
        // Setting a canvas's size clears it and resets its context's state, as on the page.
        const canvas = targets.canvases[targets.current];
        canvas.width = c[i++];
        canvas.height = c[i++];
        break;
      }
      case CALL.drawn:
        drawn(c[i++]);
        break;
      case CALL.save:
        ctx.save();
        break;
      case CALL.restore:
        ctx.restore();
        break;
      case CALL.setTransform:
        ctx.setTransform(c[i], c[i + 1], c[i + 2], c[i + 3], c[i + 4], c[i + 5]);
        i += 6;
        break;
      case CALL.translate:
        ctx.translate(c[i], c[i + 1]);
        i += 2;
        break;
      case CALL.scale:
        ctx.scale(c[i], c[i + 1]);
        i += 2;
        break;
      case CALL.clearRect:
        ctx.clearRect(c[i], c[i + 1], c[i + 2], c[i + 3]);
        i += 4;
        break;
      case CALL.clearAll: {
        const canvas = targets.canvases[targets.current];
        ctx.save();
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.clearRect(0, 0, canvas.width, canvas.height);
        ctx.restore();
        break;
      }
      case CALL.beginPath:
        ctx.beginPath();
        break;
      case CALL.rect:
        ctx.rect(c[i], c[i + 1], c[i + 2], c[i + 3]);
        i += 4;
        break;
      case CALL.clip:
        ctx.clip();
        break;
      case CALL.arc:
        ctx.arc(c[i], c[i + 1], c[i + 2], c[i + 3], c[i + 4], c[i + 5] === 1);
        i += 6;
        break;
      case CALL.moveTo:
        ctx.moveTo(c[i], c[i + 1]);
        i += 2;
        break;
      case CALL.lineTo:
        ctx.lineTo(c[i], c[i + 1]);
        i += 2;
        break;
      case CALL.closePath:
        ctx.closePath();
        break;
      case CALL.fill:
        ctx.fill(c[i++] === 1 ? 'evenodd' : 'nonzero');
        break;
      case CALL.stroke:
        ctx.stroke();
        break;
      case CALL.setLineDash: {
        const n = c[i++];
        ctx.setLineDash(Array.from(c.subarray(i, i + n)));
        i += n;
        break;
      }
      case CALL.globalAlpha:
        ctx.globalAlpha = c[i++];
        break;
      case CALL.fillStyle:
        ctx.fillStyle = s[c[i++]];
        break;
      case CALL.strokeStyle:
        ctx.strokeStyle = s[c[i++]];
        break;
      case CALL.lineWidth:
        ctx.lineWidth = c[i++];
        break;
      case CALL.lineCap:
        ctx.lineCap = s[c[i++]] as CanvasLineCap;
        break;
      case CALL.lineJoin:
        ctx.lineJoin = s[c[i++]] as CanvasLineJoin;
        break;
      default:
        throw new Error(`unknown canvas call ${String(call)}`);
    }
  }
}
