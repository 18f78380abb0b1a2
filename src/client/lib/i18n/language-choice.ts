import { useCallback, useSyncExternalStore } from 'react';
import type { LanguageChoice } from './locales';
import { isLocale } from './locales';

/**
 * The language choice lives in localStorage, one entry per user (`trapline.language.<owner>`,
 * owner = "agencyId:username", the key the app keys a user's data by), plus the tablet's last
 * choice (`trapline.language`) for the screens before anyone signs in. A user who never chose
 * gets the tablet's last choice (what the sign-in screen was just shown in), else Automatic.
 * Like the other per-tablet settings it is read synchronously, so the first paint is already in
 * the right language and it works offline.
 */
export const TABLET_LANGUAGE_KEY = 'trapline.language';
const userKey = (owner: string) => `${TABLET_LANGUAGE_KEY}.${owner}`;
const listeners = new Set<() => void>();

function read(key: string): LanguageChoice | null {
  try {
    const stored = globalThis.localStorage?.getItem(key);
    return stored === 'auto' || isLocale(stored) ? stored : null;
  } catch {
    return null;
  }
}

/** The choice in force for `owner` (null: nobody signed in). */
export function languageChoice(owner: string | null): LanguageChoice {
  return (owner === null ? null : read(userKey(owner))) ?? read(TABLET_LANGUAGE_KEY) ?? 'auto';
}

/** Stores `choice` for `owner` and as the tablet's last choice; every provider follows. */
export function setLanguageChoice(owner: string | null, choice: LanguageChoice): void {
  try {
    if (owner !== null) localStorage.setItem(userKey(owner), choice);
    localStorage.setItem(TABLET_LANGUAGE_KEY, choice);
  } catch {
    // Storage refused (private mode, quota): the choice lasts for this page only.
  }
  for (const listener of listeners) listener();
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  window.addEventListener('storage', onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** The choice for `owner` and its setter; a change in another tab is followed too. */
export function useLanguageChoice(
  owner: string | null,
): [LanguageChoice, (choice: LanguageChoice) => void] {
  const read = () => languageChoice(owner);
  // The same read while hydrating: the sign-in screen prerendered in English (no storage at build
  // time: 'auto') is hydrated only where the stored choice also gives English
  // (lib/prerendered-sign-in), so a stored English beside a Spanish browser matches, not 'auto'.
  const choice = useSyncExternalStore(subscribe, read, read);
  const set = useCallback((next: LanguageChoice) => setLanguageChoice(owner, next), [owner]);
  return [choice, set];
}
