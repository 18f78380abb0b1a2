import {
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { createIntl, createIntlCache, RawIntlProvider, type IntlShape } from 'react-intl';
import { english, loadCatalogue, loadedCatalogue, type Catalogue } from './catalogues';
import { useLanguageChoice } from './language-choice';
import {
  detectLocale,
  formattingTag,
  tabletLanguages,
  type LanguageChoice,
  type Locale,
} from './locales';

const cache = createIntlCache();

/** An IntlShape for `locale` with its (compiled) catalogue. */
export function makeIntl(locale: string, messages: Catalogue): IntlShape {
  return createIntl(
    {
      locale,
      defaultLocale: 'en',
      messages,
      // A message missing from a catalogue falls back to English (the catalogue test keeps them
      // complete); only a development build says so, once per message, in the console.
      onError: (error) => {
        if (import.meta.env.DEV && error.code !== 'MISSING_TRANSLATION') console.warn(error);
      },
    },
    cache,
  );
}

type Language = {
  /** What the person picked (Settings). */
  choice: LanguageChoice;
  setChoice: (choice: LanguageChoice) => void;
  /** The language shown: the choice, or the tablet's language for Automatic. */
  locale: Locale;
};

const LanguageContext = createContext<Language | null>(null);

/** The language choice and its setter (Settings); outside a provider, English and no choice. */
export function useLanguage(): Language {
  return (
    useContext(LanguageContext) ?? { choice: 'auto', setChoice: () => undefined, locale: 'en' }
  );
}

/**
 * Gives the screens under it the language `owner` (agencyId:username, null before sign-in) chose,
 * or the tablet's. While another language's catalogue arrives (a few milliseconds, from the
 * service worker's cache), the screen stays in the language it was in; on a first start in that
 * language nothing shows until it is here, rather than a flash of English. `<html lang>` follows
 * the language shown, so screen readers and hyphenation use it.
 */
export function I18nProvider({ owner, children }: { owner: string | null; children: ReactNode }) {
  const [choice, setChoice] = useLanguageChoice(owner);
  const locale: Locale = choice === 'auto' ? detectLocale(tabletLanguages()) : choice;
  const [shown, setShown] = useState<{ locale: Locale; messages: Catalogue } | null>(() => {
    const messages = loadedCatalogue(locale);
    return messages ? { locale, messages } : null;
  });
  useEffect(() => {
    let live = true;
    void loadCatalogue(locale).then(
      (messages) => live && setShown({ locale, messages }),
      // A catalogue that cannot load (a broken deployment): English, rather than no screen.
      () => live && setShown({ locale: 'en', messages: english }),
    );
    return () => {
      live = false;
    };
  }, [locale]);
  // Before the browser paints the words, not after: a passive effect ran a frame (or, on a busy
  // tablet, many) after the Spanish screen was shown with <html lang="en"> still on it
  // (language-choice.test failed so once in a loaded run).
  useLayoutEffect(() => {
    if (shown) document.documentElement.lang = shown.locale;
  }, [shown]);
  const intl = useMemo(
    () => shown && makeIntl(formattingTag(shown.locale, tabletLanguages()), shown.messages),
    [shown],
  );
  const language = useMemo(() => ({ choice, setChoice, locale }), [choice, setChoice, locale]);
  if (!intl) return null;
  return (
    <LanguageContext.Provider value={language}>
      <RawIntlProvider value={intl}>{children}</RawIntlProvider>
    </LanguageContext.Provider>
  );
}
