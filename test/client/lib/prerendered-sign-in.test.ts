import { describe, expect, it } from 'vitest';
import { languageChoice } from '../../../src/client/lib/i18n/language-choice';
import { detectLocale } from '../../../src/client/lib/i18n/locales';
import { IDENTITY_KEY } from '../../../src/client/lib/identity';
import {
  SHELL_CLASSES,
  SHELL_GATE_CONFIG,
  signInShellGate,
} from '../../../src/client/lib/prerendered-sign-in';

type Tablet = { identity: boolean; stored: string | null; languages: string[] };

/**
 * The gate's source text, as index.html inlines it, bound to a page of its own: a separate
 * document, storage and navigator (the jsdom page of this worker is shared with other files, and
 * the gate's submit listener cannot be taken back).
 */
function inlinedGate(
  page: Document,
  localStorage: { getItem(key: string): string | null },
  navigator: { languages: string[]; language?: string },
): typeof signInShellGate {
  return new Function(
    'document',
    'localStorage',
    'navigator',
    `return ${signInShellGate.toString()}`,
  )(page, localStorage, navigator) as typeof signInShellGate;
}

function runGate(tablet: Tablet) {
  const page = document.implementation.createHTMLDocument('Trapline');
  const storage = new Map<string, string>();
  if (tablet.identity) storage.set(IDENTITY_KEY, '{"user":{}}');
  if (tablet.stored !== null) storage.set(SHELL_GATE_CONFIG.languageKey, tablet.stored);
  const localStorage = { getItem: (key: string) => storage.get(key) ?? null };
  inlinedGate(page, localStorage, { languages: tablet.languages, language: tablet.languages[0] })(
    SHELL_GATE_CONFIG,
  );
  return page;
}

/** What the app itself shows before sign-in on that tablet (lib/i18n, lib/identity). */
function appShowsEnglishSignIn(tablet: Tablet): boolean {
  localStorage.clear();
  if (tablet.stored !== null) localStorage.setItem(SHELL_GATE_CONFIG.languageKey, tablet.stored);
  const choice = languageChoice(null);
  const locale = choice === 'auto' ? detectLocale(tablet.languages) : choice;
  localStorage.clear();
  return !tablet.identity && locale === 'en';
}

describe('the gate of the prerendered sign-in screen', () => {
  const tablets: Tablet[] = [];
  for (const identity of [false, true])
    for (const stored of [null, 'auto', 'en', 'es', 'klingon'])
      for (const languages of [['en-US'], ['es-MX', 'en'], ['fr-FR', 'es'], ['de'], ['EN_gb']])
        tablets.push({ identity, stored, languages });

  it.each(tablets)('shows the English sign-in screen exactly where the app would: %j', (tablet) => {
    const hidden = runGate(tablet).documentElement.classList.contains(SHELL_CLASSES.hidden);
    expect(!hidden).toBe(appShowsEnglishSignIn(tablet));
  });

  it('keeps a submit from the browser (no GET with the password) until the app has the form', () => {
    const page = runGate({ identity: false, stored: null, languages: ['en-US'] });
    const form = page.createElement('form');
    page.body.append(form);
    const early = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(early);
    expect(early.defaultPrevented).toBe(true);
    expect(page.documentElement.classList.contains(SHELL_CLASSES.pending)).toBe(true);

    page.documentElement.classList.add(SHELL_CLASSES.ready);
    let reached = false;
    form.addEventListener('submit', (event) => {
      reached = true;
      event.preventDefault();
    });
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    expect(reached).toBe(true);
  });

  it('hides the screen when storage cannot be read (the app decides once it runs)', () => {
    const page = document.implementation.createHTMLDocument('Trapline');
    const refused = {
      getItem: () => {
        throw new Error('SecurityError');
      },
    };
    inlinedGate(page, refused, { languages: ['en'] })(SHELL_GATE_CONFIG);
    expect(page.documentElement.classList.contains(SHELL_CLASSES.hidden)).toBe(true);
  });
});
