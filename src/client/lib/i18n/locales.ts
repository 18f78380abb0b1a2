/** The languages the app ships, English first: the fallback and the language of the source. */
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** What a person picks in Settings: follow the tablet, or one language. */
export type LanguageChoice = 'auto' | Locale;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * The first of the tablet's languages (`navigator.languages`, in the person's order) that the app
 * ships, matched on the language alone ("es-MX" → "es"); English when none is.
 */
export function detectLocale(languages: readonly string[] | undefined): Locale {
  for (const tag of languages ?? []) {
    const base = tag.toLowerCase().split(/[-_]/)[0];
    if (isLocale(base)) return base;
  }
  return 'en';
}

/**
 * The tablet's languages, or none outside a browser (server-side tools, the build's prerender of
 * the sign-in screen: Node has a `navigator` whose language is the build machine's, not a tablet's).
 */
export function tabletLanguages(): readonly string[] {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/**
 * The tag to format numbers and dates with when `locale` is shown: the tablet's own regional
 * variant of it where it has one ("es-MX": 10,240.5 and Mexico's dates; "es" alone would write
 * Spain's 10.240,5), else the language alone. Messages come from `locale`'s catalogue either way.
 */
export function formattingTag(locale: Locale, languages: readonly string[] | undefined): string {
  for (const tag of languages ?? []) {
    if (tag.toLowerCase().split(/[-_]/)[0] !== locale) continue;
    try {
      return Intl.getCanonicalLocales(tag.replace('_', '-'))[0] ?? locale;
    } catch {
      return locale;
    }
  }
  return locale;
}
