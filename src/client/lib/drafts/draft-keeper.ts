import { sameFormValues } from './draft-values';

/**
 * Where drafts are kept: the signed-in user's `meta` table (`db.meta` fits this shape; the form
 * kit does not import the database). Each user has their own database, so a draft is never shown
 * to the next technician on a shared tablet.
 */
export type DraftStore = {
  get(key: string): PromiseLike<{ key: string; value: unknown } | undefined>;
  put(row: { key: string; value: unknown }): PromiseLike<unknown>;
  delete(key: string): PromiseLike<unknown>;
  where(index: 'key'): {
    startsWith(prefix: string): {
      first(): PromiseLike<{ key: string; value: unknown } | undefined>;
      delete(): PromiseLike<unknown>;
    };
  };
};

/** How long typing rests before its draft is written: a write per pause, not per keystroke. */
export const DRAFT_DELAY_MS = 400;

/**
 * How long a save waits for the draft writes asked before it to land first; after that (the
 * tablet busy) they wait for the save, and are dropped once the record is saved.
 */
const DRAFT_BEFORE_SAVE_MS = 1000;

export type StoredDraft = {
  values: Record<string, unknown>;
  /** The saved values the form opened with when the draft was written. */
  openedWith: Record<string, unknown>;
  /** The record's data the form opened with (DraftPlace.base); absent for new records. */
  base?: Record<string, unknown>;
  savedAt: number;
};

export function asStoredDraft(value: unknown): StoredDraft | null {
  const v = value as Partial<StoredDraft> | null | undefined;
  return v && typeof v === 'object' && v.values && v.openedWith && typeof v.savedAt === 'number'
    ? (v as StoredDraft)
    : null;
}

/**
 * Every draft read, write and delete, of every form, one after another in the order asked: a
 * delete (save, discard) lands after a write begun before it, and a form unmounting writes its
 * last typing before the same form opened again reads it, or a gone record's drafts are dropped.
 */
let draftOps: Promise<unknown> = Promise.resolve();

export function inOrder<T>(op: () => PromiseLike<T>): Promise<T> {
  const next = draftOps.then(op);
  draftOps = next.catch(() => undefined);
  return next;
}

/**
 * The saves under way, by draft key: whether the record was saved. A draft write of that key
 * waits for the outcome (and is dropped if the record was saved), a form opening on that key
 * reads its draft only after it: typing that became a record is never written again as a draft.
 */
const savesUnderWay = new Map<string, Promise<boolean>>();
/**
 * How many times typing of each draft key became a record. A keeper made before the last of them
 * (the form that saved, re-created or still mounted, or opened while it saved) writes nothing.
 */
const savesDone = new Map<string, number>();

/**
 * Writes one open form's draft. A failed write (storage full) is let go: the form itself keeps
 * working and says why a save fails.
 */
export class DraftKeeper {
  /** False until the stored draft was read: a write before that could replace it. */
  ready = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** savesDone of this key when the keeper was made. */
  private readonly generation: number;

  constructor(
    private readonly store: DraftStore,
    private readonly key: string,
    private readonly values: () => Record<string, unknown>,
    private readonly openedWith: Record<string, unknown>,
    private readonly base: Record<string, unknown> | undefined,
    /** An edit's `draft:<form>:<record>:`, where drafts of older versions may be. */
    private readonly anyParentPrefix: string | null,
  ) {
    this.generation = savesDone.get(key) ?? 0;
  }

  /** Typing of this key was saved as a record since this keeper was made: it keeps nothing. */
  private get saved(): boolean {
    return (savesDone.get(this.key) ?? 0) !== this.generation;
  }

  read(): Promise<StoredDraft | null> {
    // A save of this key under way: its draft is read once the record is saved (or not).
    const under = savesUnderWay.get(this.key);
    const row = under
      ? under.then(() => (this.saved ? undefined : this.readNow()))
      : this.readNow();
    return row.then((r) => (this.saved ? null : asStoredDraft(r?.value)));
  }

  private readNow(): Promise<{ key: string; value: unknown } | undefined> {
    return inOrder(async () => {
      const row = await this.store.get(this.key);
      if (row || !this.anyParentPrefix) return row;
      // An edit draft written under its parent's localId (before drafts of edits were keyed by
      // the record alone): moved to this key, so that a save or discard removes it.
      const older = await this.store.where('key').startsWith(this.anyParentPrefix).first();
      if (!older) return undefined;
      await this.store.put({ key: this.key, value: older.value });
      await this.store.delete(older.key);
      return older;
    });
  }

  /** The form's values changed: write them once typing rests. */
  changed(): void {
    if (!this.ready || this.saved) return;
    this.cancel();
    this.timer = setTimeout(() => this.write(), DRAFT_DELAY_MS);
  }

  /** Writes now what is waiting for the pause (the page is hidden, the form unmounts, a save). */
  flush(): void {
    if (this.timer !== null) this.write();
  }

  /** Typing that ends where the form opened is no draft: it is removed rather than written. */
  write(): void {
    this.cancel();
    if (!this.ready || this.saved) return;
    const values = this.values();
    if (sameFormValues(values, this.openedWith)) this.remove();
    else
      this.run(async () => {
        // Written while the form's typing is being saved: only if the save fails. A draft
        // written after its record would be offered again as unsaved typing.
        await savesUnderWay.get(this.key);
        if (this.saved) return;
        await this.store.put({
          key: this.key,
          value: {
            values,
            openedWith: this.openedWith,
            ...(this.base ? { base: this.base } : {}),
            savedAt: Date.now(),
          } satisfies StoredDraft,
        });
      });
  }

  /** Forgets the draft; typing afterwards (the form still open) writes a new one. */
  remove(): void {
    this.cancel();
    // After a save, the key may hold the draft of the same form opened again: not this one's.
    if (this.saved) return;
    this.run(() => this.store.delete(this.key));
  }

  /**
   * Saves the typing as its record: the latest typing goes into the draft first (a crash mid-save
   * keeps it; on a tablet too busy to write it at once, it waits for the save instead), no draft
   * of this key is written or read until the save is over, and once it succeeded nothing more is
   * written for this form, or any other keeper of the same key made before. The save should
   * delete the draft in the record's own transaction (createRecords' `draftKey`); it is deleted
   * here as well.
   */
  async saving<T>(save: () => Promise<T>): Promise<T> {
    this.flush();
    let waited: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      draftOps,
      new Promise((resolve) => (waited = setTimeout(resolve, DRAFT_BEFORE_SAVE_MS))),
    ]);
    clearTimeout(waited);
    let settle: (saved: boolean) => void = () => {};
    const outcome = new Promise<boolean>((resolve) => (settle = resolve));
    savesUnderWay.set(this.key, outcome);
    let saved = false;
    try {
      const result = await save();
      saved = true;
      return result;
    } finally {
      if (saved) this.done();
      if (savesUnderWay.get(this.key) === outcome) savesUnderWay.delete(this.key);
      settle(saved);
    }
  }

  /** The typing was saved as the record: nothing more is written for this form. */
  done(): Promise<unknown> {
    if (!this.saved) {
      this.cancel();
      this.run(() => this.store.delete(this.key));
      savesDone.set(this.key, this.generation + 1);
    }
    return draftOps;
  }

  private cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private run(op: () => PromiseLike<unknown>): void {
    inOrder(op).catch(() => undefined);
  }
}
