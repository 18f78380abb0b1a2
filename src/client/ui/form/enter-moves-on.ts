import type { KeyboardEvent } from 'react';

/** Inputs typed into on one line; Enter in them would submit the whole form (implicit submission). */
const ONE_LINE = new Set(['text', 'search', 'tel', 'number', 'date', 'datetime-local', 'time']);

function isTypingField(
  el: Element,
): el is HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  if (el instanceof HTMLInputElement) return ONE_LINE.has(el.type) && !el.disabled && !el.readOnly;
  return (el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) && !el.disabled;
}

/**
 * A record form's onKeyDown: the tablet keyboard's Enter ("Go"/"Next") in a one-line field moves
 * to the form's next field instead of saving what is typed so far (a collection with one row
 * of three, the pools before the last count is changed). Saving is the Save button's job; past
 * the last field Enter only closes the keyboard.
 */
export function enterMovesOn(e: KeyboardEvent<HTMLFormElement>) {
  const at = e.target;
  if (e.key !== 'Enter' || e.defaultPrevented || e.nativeEvent.isComposing) return;
  if (!(at instanceof HTMLInputElement) || !isTypingField(at)) return;
  e.preventDefault();
  const fields = [...e.currentTarget.elements].filter(isTypingField);
  const next = fields[fields.indexOf(at) + 1];
  if (next) next.focus();
  else at.blur();
}
