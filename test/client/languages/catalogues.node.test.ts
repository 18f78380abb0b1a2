import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  isArgumentElement,
  isDateElement,
  isNumberElement,
  isPluralElement,
  isSelectElement,
  isTagElement,
  isTimeElement,
  parse,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';
import { describe, expect, it, onTestFinished } from 'vitest';

const DIR = 'src/client/lib/i18n/messages';
const read = (locale: string) =>
  JSON.parse(readFileSync(join(DIR, `${locale}.json`), 'utf8')) as Record<string, string>;
const en = read('en');
const es = read('es');

/** The values and tags a message uses: a translation must use the same ones. */
function names(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (isArgumentElement(el) || isNumberElement(el) || isDateElement(el) || isTimeElement(el))
      into.add(el.value);
    if (isTagElement(el)) {
      into.add(`<${el.value}>`);
      names(el.children, into);
    }
    if (isPluralElement(el) || isSelectElement(el)) {
      into.add(el.value);
      for (const option of Object.values(el.options)) names(option.value, into);
    }
  }
  return into;
}

describe('the message catalogues', () => {
  it('English is what the code says: npm run i18n:extract leaves en.json as it is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trapline-i18n-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const out = join(dir, 'en.json');
    execFileSync(
      'node_modules/.bin/formatjs',
      [
        'extract',
        'src/client/**/*.{ts,tsx}',
        '--ignore',
        '**/*.d.ts',
        '--additional-function-names',
        't',
        '--format',
        'simple',
        '--out-file',
        out,
      ],
      { stdio: 'pipe' },
    );
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(en);
  });

  it('Spanish has every message and nothing else', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
  });

  it('every Spanish message parses and uses the same values and tags as the English one', () => {
    const differ = Object.keys(en).filter((id) => {
      const want = [...names(parse(en[id]))].sort();
      const got = [...names(parse(es[id] ?? ''))].sort();
      return JSON.stringify(want) !== JSON.stringify(got);
    });
    expect(differ).toEqual([]);
  });
});
