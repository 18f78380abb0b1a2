import type { ImportError } from '#shared/schemas/site-import';
import { fileError } from './import-rows';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/**
 * The file as text: UTF-8, with or without a byte order mark (TextDecoder drops one BOM). Text
 * in another encoding (Excel's plain "CSV" is Windows-1252) is refused rather than guessed, with
 * the line of the first byte that is not UTF-8, so "Müller" never becomes "M�ller" in a site name.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { error: ImportError } {
  try {
    return { text: strict.decode(bytes) };
  } catch {
    const text = lenient.decode(bytes);
    const at = text.indexOf('\ufffd');
    const line = at < 0 ? 0 : text.slice(0, at).split('\n').length;
    return {
      error: fileError(
        'not_utf8',
        `The file is not UTF-8 text (line ${line} holds a character in another encoding). ` +
          'Save it as "CSV UTF-8" (Excel) or UTF-8 and choose it again',
        line,
      ),
    };
  }
}
