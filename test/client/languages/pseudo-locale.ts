import {
  isLiteralElement,
  isPluralElement,
  isSelectElement,
  isTagElement,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';
import type { Catalogue } from '../../../src/client/lib/i18n';

/** Latin letters with accents: still readable, and never what an English literal contains. */
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
    c,
    [...'ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ'][i],
  ]),
);

/** A character only a pseudo-localised message puts on screen. */
export const PSEUDO_MARK = /[ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ⟦⟧]/;

function accentAll(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((el) => {
    if (isLiteralElement(el))
      return { ...el, value: [...el.value].map((c) => ACCENTED[c] ?? c).join('') };
    if (isTagElement(el)) return { ...el, children: accentAll(el.children) };
    if (isPluralElement(el) || isSelectElement(el))
      return {
        ...el,
        options: Object.fromEntries(
          Object.entries(el.options).map(([key, option]) => [
            key,
            { ...option, value: accentAll(option.value) },
          ]),
        ),
      };
    return el;
  });
}

/**
 * The pseudo-locale: every message of `catalogue` accented and bracketed (⟦Şīɠƞ īƞ⟧), its
 * placeholders, plurals and tags kept. A text on screen without a mark came from no catalogue.
 */
export function pseudoLocalise(catalogue: Catalogue): Catalogue {
  return Object.fromEntries(
    Object.entries(catalogue).map(([id, message]) => [
      id,
      [
        { type: 0, value: '⟦' } as MessageFormatElement,
        ...accentAll(message),
        { type: 0, value: '⟧' } as MessageFormatElement,
      ],
    ]),
  );
}

/** Attributes a person reads or hears. */
const READ_ATTRIBUTES = ['aria-label', 'title', 'placeholder', 'alt', 'aria-placeholder'];

/**
 * Every text of `root` a person reads (text nodes and read attributes) that carries no pseudo
 * mark and is not one of `data` (names, numbers: the person's data, never translated).
 */
export function untranslatedTexts(root: Element, data: readonly string[]): string[] {
  const allowed = (text: string) => {
    let rest = text;
    for (const value of data) rest = rest.split(value).join('');
    // What is left of a data-only text: digits and punctuation.
    return /^[\s\d.,:;±()·–—%/+-]*$/.test(rest);
  };
  const found: string[] = [];
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim() ?? '';
    if (text && !PSEUDO_MARK.test(text) && !allowed(text)) found.push(text);
  }
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const name of READ_ATTRIBUTES) {
      const text = el.getAttribute(name)?.trim();
      if (text && !PSEUDO_MARK.test(text) && !allowed(text)) found.push(`[${name}] ${text}`);
    }
  }
  return found;
}
