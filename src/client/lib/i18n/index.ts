/**
 * Languages (issue 38). FormatJS (react-intl 12, ICU MessageFormat), chosen over Lingui 5:
 * - No compile-time transform of the app's code. Lingui's macros need a Babel or SWC pass over
 *   every file, and Vite 8's React plugin (6.x, Oxc) has no Babel any more: an extra pass in the
 *   build, the dev server and every test run, on two shared cores. react-intl's messages are plain
 *   calls, `intl.formatMessage({ id, defaultMessage })`, that `formatjs extract` reads.
 * - Compiled catalogues all the same: the build parses each catalogue's ICU messages into their
 *   syntax trees (vite.config.ts, `trapline-compiled-messages`) and the app build drops the ICU
 *   parser (`@formatjs/icu-messageformat-parser/no-parser`), so the browser formats, never parses.
 * - One chunk per language, fetched when chosen; English is in the first load as the fallback.
 *   The chunks are build files like any other: the service worker precaches them.
 * - Installs and runs on Node 20.19 and 24 (react-intl has no engine limit; @formatjs/cli, a dev
 *   tool, ships its binary in a registry package). i18next 27 declares Node >= 22; Lingui 6 too.
 * Cost measured in the build: see README "Languages".
 */
export { I18nProvider, useLanguage, makeIntl } from './i18n-provider';
export { englishIntl, useI18n } from './use-i18n';
export { sinceIn } from './relative-time';
export { type LanguageChoice } from './locales';
export { english, type Catalogue } from './catalogues';
export { translateShared } from './shared-messages';
export { sayIn, type Said } from './said';
export { dateIn } from './dates';
export { distanceIn, compassIn } from './distance';
export { fieldIn, translateRule } from './rule-messages';
export { serverMessage, serverFieldMessage, type ServerError } from './server-messages';
