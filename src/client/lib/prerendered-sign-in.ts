import { IDENTITY_KEY } from './identity';
import { TABLET_LANGUAGE_KEY } from './i18n/language-choice';
import { LOCALES } from './i18n/locales';

/**
 * index.html carries the sign-in screen already rendered (vite.config.ts, `prerenderSignIn`, from
 * app/sign-in-prerender.tsx), so a first visit paints the form before any script has run; the
 * app then hydrates it. It is English and for nobody: a tablet that remembers who signed in, or
 * whose person reads another language, must never see it. Which case holds is decided once, by
 * `signInShellGate` inlined in <head> (it runs before <body> is parsed, so before any paint), and
 * written on <html> as classes that styles.css and app/start-app.tsx read:
 *
 * - `hidden`: the shell is not for this tablet; CSS hides it and start-app.tsx renders afresh.
 * - `ready`: React handles the page's forms. Until then a submit (Enter, a tap on Sign in) does
 *   nothing the browser would do by itself (a GET with the password in the URL); it is noted as
 *   `pending` and made again by the sign-in form once React has taken it over.
 */
export const SHELL_CLASSES = {
  hidden: 'trapline-shell-hidden',
  ready: 'trapline-ready',
  pending: 'trapline-submit-pending',
} as const;

export type ShellGateConfig = {
  identityKey: string;
  languageKey: string;
  locales: readonly string[];
  classes: typeof SHELL_CLASSES;
};

/** What the inlined gate is called with: the keys the app itself reads. */
export const SHELL_GATE_CONFIG: ShellGateConfig = {
  identityKey: IDENTITY_KEY,
  languageKey: TABLET_LANGUAGE_KEY,
  locales: LOCALES,
  classes: SHELL_CLASSES,
};

/**
 * Inlined into index.html as its source text, so it must stand alone: no imports, no closures,
 * everything through `config`. It mirrors what the app shows before sign-in: a remembered
 * identity opens the signed-in app; the language is the tablet's stored choice, else the first
 * of the browser's languages the app ships (lib/i18n `languageChoice(null)` and `detectLocale`;
 * test/client/lib/prerendered-sign-in.test.ts holds the two together).
 */
export function signInShellGate(config: ShellGateConfig): void {
  const html = document.documentElement;
  let forThisTablet = false;
  try {
    const choice = localStorage.getItem(config.languageKey);
    let locale = 'en';
    if (choice !== null && config.locales.includes(choice)) locale = choice;
    else {
      const languages = navigator.languages?.length ? navigator.languages : [navigator.language];
      for (const tag of languages) {
        const base = String(tag).toLowerCase().split(/[-_]/)[0];
        if (config.locales.includes(base)) {
          locale = base;
          break;
        }
      }
    }
    forThisTablet = !localStorage.getItem(config.identityKey) && locale === 'en';
  } catch {
    // Storage refused: the app decides once it runs, from a blank page rather than a wrong one.
  }
  if (!forThisTablet) html.classList.add(config.classes.hidden);
  document.addEventListener(
    'submit',
    (event) => {
      if (html.classList.contains(config.classes.ready)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      html.classList.add(config.classes.pending);
    },
    true,
  );
}

const root = () => document.documentElement.classList;

/** The prerendered sign-in screen is in `container` and meant for this tablet: hydrate it. */
export function signInShellShown(container: HTMLElement): boolean {
  return container.firstElementChild !== null && !root().contains(SHELL_CLASSES.hidden);
}

/**
 * The app renders afresh into `container` (a remembered identity, another language, or no
 * prerendered screen as in the dev server): the shell goes, and forms are React's from now on.
 */
export function discardSignInShell(container: HTMLElement): void {
  container.replaceChildren();
  root().remove(SHELL_CLASSES.hidden);
  root().add(SHELL_CLASSES.ready);
}

/**
 * The sign-in form is React's now (its first commit): forms are handed over, and a submit made
 * before the scripts ran is made again, with what was typed (the form kept it).
 */
export function signInFormTakenOver(form: HTMLFormElement | null): void {
  root().add(SHELL_CLASSES.ready);
  if (!root().contains(SHELL_CLASSES.pending)) return;
  root().remove(SHELL_CLASSES.pending);
  form?.requestSubmit();
}
