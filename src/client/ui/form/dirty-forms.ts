import { useEffect } from 'react';

/**
 * Which forms currently hold unsaved typing. The update banner reads it so that a new version is
 * never activated under an open form.
 */
const dirty = new Set<string>();

export function anyFormDirty(): boolean {
  return dirty.size > 0;
}

export function setFormDirty(formId: string, isDirty: boolean): void {
  if (isDirty) dirty.add(formId);
  else dirty.delete(formId);
}

/** Registers a form's dirty state while it is mounted. */
export function useDirtyForm(formId: string, isDirty: boolean): void {
  useEffect(() => {
    setFormDirty(formId, isDirty);
    return () => setFormDirty(formId, false);
  }, [formId, isDirty]);
}
