/**
 * The drafts of the forms on screen, which the leave question's answer acts on. Kept apart from
 * use-form-draft so that the always-loaded leave guard does not pull the draft keeper (and the
 * form code around it) into the first load: the forms that register here are lazy screens.
 */
export type OpenDraft = {
  /** Forgets the form's draft (the technician chose "Discard"). */
  remove(): void;
  /** Writes the form's typing to its draft now (the technician stays on the form). */
  write(): void;
};

const open = new Set<OpenDraft>();

/** Registers a form's draft while the form is on screen; returns the unregistration. */
export function registerOpenDraft(draft: OpenDraft): () => void {
  open.add(draft);
  return () => open.delete(draft);
}

/** The technician chose to discard what the open forms hold: their drafts go too. */
export function discardOpenDrafts(): void {
  for (const draft of open) draft.remove();
}

/** The technician stays on the open forms (after Cancel asked first): their drafts are kept. */
export function keepOpenDrafts(): void {
  for (const draft of open) draft.write();
}
