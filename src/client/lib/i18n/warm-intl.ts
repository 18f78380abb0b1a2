/**
 * The browser's Intl services, each made ready in a task of its own. The first use of each
 * builds its table of the locales the browser has: react-intl's createIntl asks NumberFormat
 * and DateTimeFormat for theirs, and an ICU plural the PluralRules, all inside React's first
 * render. That one unit of rendering React cannot slice was ~160 ms of a mid-range tablet's
 * main thread (4x CPU, the sign-in page's longest task; issue 40). `nextTask` lets the page
 * paint and take input between them. A leaf module: the entry imports it before React.
 */
const SERVICES: Array<() => unknown> = [
  () => Intl.NumberFormat.supportedLocalesOf('en'),
  () => Intl.DateTimeFormat.supportedLocalesOf('en'),
  () => Intl.PluralRules.supportedLocalesOf('en'),
];

export async function warmIntl(nextTask: () => Promise<void>): Promise<void> {
  for (const warm of SERVICES) {
    warm();
    await nextTask();
  }
}
