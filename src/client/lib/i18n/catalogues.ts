import type { MessageFormatElement } from 'react-intl';
import en from './messages/en.json';
import type { Locale } from './locales';

/**
 * A catalogue as the app loads it: every message already parsed to its ICU syntax tree at build
 * time (the `trapline-compiled-messages` plugin in vite.config.ts), so the browser never parses
 * a message and the ICU parser is left out of the bundle.
 */
export type Catalogue = Record<string, MessageFormatElement[]>;

/** English is in the first load: the fallback for every screen and the tests' default. */
export const english = en as unknown as Catalogue;

/**
 * Every other language is a chunk of its own, fetched when first chosen (a person reading
 * English never downloads Spanish). The chunks are ordinary build files, so the service worker
 * precaches them with the rest of the app and a language works offline from the first start.
 */
const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: unknown }>> = {
  es: () => import('./messages/es.json'),
};

const loaded = new Map<Locale, Catalogue>([['en', english]]);

/** The catalogue of `locale` if already here (English always is). */
export function loadedCatalogue(locale: Locale): Catalogue | undefined {
  return loaded.get(locale);
}

export async function loadCatalogue(locale: Locale): Promise<Catalogue> {
  const kept = loaded.get(locale);
  if (kept) return kept;
  const catalogue = (await loaders[locale as Exclude<Locale, 'en'>]()).default as Catalogue;
  loaded.set(locale, catalogue);
  return catalogue;
}
