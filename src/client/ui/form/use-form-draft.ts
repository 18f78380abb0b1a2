import { useEffect, useMemo, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { draftKey, draftPrefix, type DraftOwner } from '../../lib/drafts/draft-keys';
import {
  DraftKeeper,
  inOrder,
  type DraftStore,
  type StoredDraft,
} from '../../lib/drafts/draft-keeper';
import { sameFormValues, typedOnto } from '../../lib/drafts/draft-values';
import { registerOpenDraft } from './open-drafts';
import { typedValues } from './typed-values';

/** Which form a draft belongs to: a draft is restored only into the same form of the same record. */
export type DraftPlace = DraftOwner & {
  store: DraftStore;
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
            () => typedValues(form.getValues() as Record<string, unknown>),
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
      const thrown = {
        values: typedValues(form.getValues()),
        restored,
        typedOver: { ...typedOver?.current },
      };
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
