import { useEffect, useMemo, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { sameFormValues, typedOnto } from './draft-values';
import { registerOpenDraft } from './open-drafts';

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

/** Which form a draft belongs to: a draft is restored only into the same form of the same record. */
export type DraftPlace = {
  store: DraftStore;
  /** The form's name: `site`, `collection`, `pools`, `pool`, `pool-test`. */
  form: string;
  /** The edited record's localId; null for a new record. */
  record: string | null;
  /** The parent's localId (the site of a new collection...), or null. */
  parent: string | null;
  /**
   * An edit's record data as the form opened with it (the screen's `opened`), kept with the draft
   * as the base of what was typed.
   */
  base?: Record<string, unknown>;
  /**
   * Filled when an edit draft is restored: for each record field typed in the draft that has
   * changed on this tablet since the draft was written (a pull), the value the technician typed
   * over (from `base` then). The screen saves against these (updateRecord's `opened`), so the
   * send shows a conflict instead of overwriting the office's value the technician never saw.
   * Emptied by Discard draft.
   */
  typedOver?: { current: Record<string, unknown> };
};

/**
 * `draft:<form>:new:<parent>` for a new record, `draft:<form>:<record>:-` for an edit: an edit's
 * draft is its record's wherever the record is, as its parent's localId may change while the
 * draft waits (a pull moving a pool to the twin trap's collection, a fold of its collection).
 */
export function draftKey(place: Omit<DraftPlace, 'store' | 'base' | 'typedOver'>): string {
  return `${draftPrefix(place.form, place.record)}${place.record === null ? (place.parent ?? '-') : '-'}`;
}

const draftPrefix = (form: string, record: string | null) => `draft:${form}:${record ?? 'new'}:`;

/** How long typing rests before its draft is written: a write per pause, not per keystroke. */
export const DRAFT_DELAY_MS = 400;

/**
 * How long a save waits for the draft writes asked before it to land first; after that (the
 * tablet busy) they wait for the save, and are dropped once the record is saved.
 */
const DRAFT_BEFORE_SAVE_MS = 1000;

type StoredDraft = {
  values: Record<string, unknown>;
  /** The saved values the form opened with when the draft was written. */
  openedWith: Record<string, unknown>;
  /** The record's data the form opened with (DraftPlace.base); absent for new records. */
  base?: Record<string, unknown>;
  savedAt: number;
};

function asStoredDraft(value: unknown): StoredDraft | null {
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

function inOrder<T>(op: () => PromiseLike<T>): Promise<T> {
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
class DraftKeeper {
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

export type FormDraft = {
  /** When the restored draft was written; null when none was restored (or it was discarded). */
  restoredAt: number | null;
  /** The edited record changed on this tablet after the draft was written (a pull). */
  changedSince: boolean;
  /** Back to the saved values, draft removed. */
  discard: () => void;
  /** Discard was just tapped: `undoDiscard` puts the discarded typing (and its draft) back. */
  discarded: boolean;
  undoDiscard: () => void;
  /** Cancel: the draft is removed (written again if the leave question is answered "Keep editing"). */
  remove: () => void;
  /** Before a save: the latest typing goes into the draft, so a crash mid-save keeps it. */
  flush: () => void;
  /** Runs the save of the typing (see DraftKeeper.saving): its draft is not written after it. */
  saving: <R>(save: () => Promise<R>) => Promise<R>;
  /** After a successful save: the draft is removed. */
  done: () => Promise<unknown>;
};

const NO_DRAFT: FormDraft = {
  restoredAt: null,
  changedSince: false,
  discard: () => {},
  discarded: false,
  undoDiscard: () => {},
  remove: () => {},
  flush: () => {},
  saving: (save) => save(),
  done: () => Promise.resolve(),
};

/**
 * Keeps what is typed into a form as a draft on this tablet, and puts it back when the same form
 * is opened again after the tab was killed (reload, crash, battery, app update). The draft is
 * written a moment after each change and at once when the page is hidden or the form unmounts;
 * typing that matches the saved values removes it. An edit's draft brings back only the fields
 * that were typed: fields a pull changed meanwhile keep the record's new values
 * (`changedSince` says the record changed). `openedWith` is the form's saved values
 * (its defaultValues), which Discard returns to. No `place`: no draft.
 */
export function useFormDraft<T extends FieldValues, TOut>(
  form: UseFormReturn<T, unknown, TOut>,
  place: DraftPlace | undefined,
  openedWith: Record<string, unknown>,
): FormDraft {
  const key = place ? draftKey(place) : null;
  const store = place?.store;
  const isEdit = place?.record != null;
  // The record's data at open (the screen's useDataAtOpen: stable while the form is open).
  const base = place?.base;
  const typedOver = place?.typedOver;
  const anyParentPrefix = isEdit && place ? draftPrefix(place.form, place.record) : null;
  const keeper = useMemo(
    () =>
      key && store
        ? new DraftKeeper(
            store,
            key,
            () => form.getValues() as Record<string, unknown>,
            openedWith,
            base,
            anyParentPrefix,
          )
        : null,
    [key, store, form, openedWith, base, anyParentPrefix],
  );
  const [restored, setRestored] = useState<{ at: number; changedSince: boolean } | null>(null);
  // What the last Discard threw away, so a stray tap on it costs nothing (Undo).
  const [discarded, setDiscarded] = useState<{
    values: T;
    restored: typeof restored;
    typedOver: Record<string, unknown>;
  } | null>(null);

  useEffect(() => {
    if (!keeper) return;
    let live = true;
    // A form (another record, or opened again) starts with nothing typed over.
    if (typedOver) typedOver.current = {};
    keeper.read().then(
      (draft) => {
        if (!live) return;
        // Typing begun before the draft was read wins: it is newer.
        if (draft && sameFormValues(form.getValues(), openedWith)) {
          const values = isEdit
            ? typedOnto(draft.values, draft.openedWith, openedWith)
            : draft.values;
          if (sameFormValues(values, openedWith)) keeper.remove();
          else {
            // The saved values stay the form's defaults: it is dirty, and Discard goes back to them.
            form.reset(values as T, { keepDefaultValues: true, keepErrors: true });
            if (isEdit && typedOver)
              typedOver.current = typedOverBase(draft, openedWith, base ?? null);
            setRestored({
              at: draft.savedAt,
              changedSince: isEdit && !sameFormValues(draft.openedWith, openedWith),
            });
          }
        }
        keeper.ready = true;
      },
      () => {
        keeper.ready = true;
      },
    );
    const watching = form.watch(() => {
      keeper.changed();
      // Typing after a Discard is the technician's new start: Undo would overwrite it.
      setDiscarded(null);
    });
    const flush = () => keeper.flush();
    const flushIfHidden = () => {
      if (document.visibilityState === 'hidden') keeper.flush();
    };
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', flushIfHidden);
    const unregister = registerOpenDraft(keeper);
    return () => {
      live = false;
      watching.unsubscribe();
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', flushIfHidden);
      unregister();
      // Leaving the screen is not discarding: what was typed stays a draft.
      keeper.flush();
    };
  }, [keeper, form, isEdit, openedWith, base, typedOver]);

  if (!keeper) return NO_DRAFT;
  return {
    restoredAt: restored?.at ?? null,
    changedSince: restored?.changedSince ?? false,
    discard: () => {
      const thrown = { values: form.getValues(), restored, typedOver: { ...typedOver?.current } };
      form.reset(undefined, { keepErrors: true });
      if (typedOver) typedOver.current = {};
      keeper.remove();
      setRestored(null);
      // After the reset (whose change would clear it).
      setDiscarded(thrown);
    },
    discarded: discarded !== null,
    undoDiscard: () => {
      if (!discarded) return;
      form.reset(discarded.values, { keepDefaultValues: true, keepErrors: true });
      if (typedOver) typedOver.current = discarded.typedOver;
      keeper.write();
      setRestored(discarded.restored);
      setDiscarded(null);
    },
    remove: () => keeper.remove(),
    flush: () => keeper.flush(),
    saving: (save) => keeper.saving(save),
    done: () => keeper.done(),
  };
}

/**
 * The record fields a restored edit draft typed over (changed from what its form opened with)
 * that have changed since it was written (its `base` differs from the record's data now): the
 * value the technician typed over, which is what their typing replaces. Fields nobody typed in
 * take the record's new values on restore (typedOnto) and need no base. A draft of an older
 * version without `base`: none.
 */
function typedOverBase(
  draft: StoredDraft,
  openedWith: Record<string, unknown>,
  now: Record<string, unknown> | null,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!draft.base || !now) return out;
  for (const key of Object.keys(draft.values)) {
    if (sameFormValues(draft.values[key], draft.openedWith[key])) continue;
    if (sameFormValues(draft.openedWith[key], openedWith[key])) continue;
    if (key in draft.base || key in now) out[key] = draft.base[key] ?? null;
  }
  return out;
}

/**
 * Drops the drafts of a record (any parent) once it is gone from the tablet (deleted, or its
 * deletion waiting): its form will not open again, so its draft could never be restored or saved.
 * `record` null: the new-record drafts under `parent`, when the parent is gone.
 */
export function useDropDraftsWhenGone(
  gone: boolean,
  store: DraftStore,
  form: string,
  record: string | null,
  parent: string | null = null,
): void {
  const prefix = record ? draftPrefix(form, record) : draftKey({ form, record, parent });
  useEffect(() => {
    if (gone) inOrder(() => store.where('key').startsWith(prefix).delete()).catch(() => undefined);
  }, [gone, store, prefix]);
}
