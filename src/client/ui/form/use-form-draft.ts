import { useEffect, useMemo, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { sameFormValues, typedOnto } from './draft-values';

/**
 * Where drafts are kept: the signed-in user's `meta` table (`db.meta` fits this shape; the form
 * kit does not import the database). Each user has their own database, so a draft is never shown
 * to the next technician on a shared tablet.
 */
export type DraftStore = {
  get(key: string): PromiseLike<{ key: string; value: unknown } | undefined>;
  put(row: { key: string; value: unknown }): PromiseLike<unknown>;
  delete(key: string): PromiseLike<unknown>;
  where(index: 'key'): { startsWith(prefix: string): { delete(): PromiseLike<unknown> } };
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
};

/** `draft:<form>:<record-or-new>:<parent>`. */
export function draftKey(place: Omit<DraftPlace, 'store'>): string {
  return `${draftPrefix(place.form, place.record)}${place.parent ?? '-'}`;
}

const draftPrefix = (form: string, record: string | null) => `draft:${form}:${record ?? 'new'}:`;

/** How long typing rests before its draft is written: a write per pause, not per keystroke. */
export const DRAFT_DELAY_MS = 400;

type StoredDraft = {
  values: Record<string, unknown>;
  /** The saved values the form opened with when the draft was written. */
  openedWith: Record<string, unknown>;
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
 * Writes one open form's draft. A failed write (storage full) is let go: the form itself keeps
 * working and says why a save fails.
 */
class DraftKeeper {
  /** False until the stored draft was read: a write before that could replace it. */
  ready = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private saved = false;

  constructor(
    private readonly store: DraftStore,
    private readonly key: string,
    private readonly values: () => Record<string, unknown>,
    private readonly openedWith: Record<string, unknown>,
  ) {}

  read(): Promise<StoredDraft | null> {
    return inOrder(() => this.store.get(this.key)).then((row) => asStoredDraft(row?.value));
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
      this.run(() =>
        this.store.put({
          key: this.key,
          value: { values, openedWith: this.openedWith, savedAt: Date.now() },
        }),
      );
  }

  /** Forgets the draft; typing afterwards (the form still open) writes a new one. */
  remove(): void {
    this.cancel();
    this.run(() => this.store.delete(this.key));
  }

  /** The typing was saved as the record: nothing more is written for this form. */
  done(): Promise<unknown> {
    this.saved = true;
    this.remove();
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

/** The drafts of the forms on screen, forgotten when the leave question is answered "Discard". */
const openKeepers = new Set<DraftKeeper>();

/** The technician chose to discard what the open forms hold: their drafts go too. */
export function discardOpenDrafts(): void {
  for (const keeper of openKeepers) keeper.remove();
}

/** The technician stays on the open forms (after Cancel asked first): their drafts are kept. */
export function keepOpenDrafts(): void {
  for (const keeper of openKeepers) keeper.write();
}

export type FormDraft = {
  /** When the restored draft was written; null when none was restored (or it was discarded). */
  restoredAt: number | null;
  /** The edited record changed on this tablet after the draft was written (a pull). */
  changedSince: boolean;
  /** Back to the saved values, draft removed. */
  discard: () => void;
  /** Cancel: the draft is removed (written again if the leave question is answered "Keep editing"). */
  remove: () => void;
  /** Before a save: the latest typing goes into the draft, so a crash mid-save keeps it. */
  flush: () => void;
  /** After a successful save: the draft is removed. */
  done: () => Promise<unknown>;
};

const NO_DRAFT: FormDraft = {
  restoredAt: null,
  changedSince: false,
  discard: () => {},
  remove: () => {},
  flush: () => {},
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
  const keeper = useMemo(
    () =>
      key && store
        ? new DraftKeeper(store, key, () => form.getValues() as Record<string, unknown>, openedWith)
        : null,
    [key, store, form, openedWith],
  );
  const [restored, setRestored] = useState<{ at: number; changedSince: boolean } | null>(null);

  useEffect(() => {
    if (!keeper) return;
    let live = true;
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
    const watching = form.watch(() => keeper.changed());
    const flush = () => keeper.flush();
    const flushIfHidden = () => {
      if (document.visibilityState === 'hidden') keeper.flush();
    };
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', flushIfHidden);
    openKeepers.add(keeper);
    return () => {
      live = false;
      watching.unsubscribe();
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', flushIfHidden);
      openKeepers.delete(keeper);
      // Leaving the screen is not discarding: what was typed stays a draft.
      keeper.flush();
    };
  }, [keeper, form, isEdit, openedWith]);

  if (!keeper) return NO_DRAFT;
  return {
    restoredAt: restored?.at ?? null,
    changedSince: restored?.changedSince ?? false,
    discard: () => {
      form.reset(undefined, { keepErrors: true });
      keeper.remove();
      setRestored(null);
    },
    remove: () => keeper.remove(),
    flush: () => keeper.flush(),
    done: () => keeper.done(),
  };
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
