import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A `<script>` without `src`: its text is what the browser runs. */
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * CSP sources (`'sha256-…'`) for the inline scripts of the built index.html under `root` (the
 * sign-in screen's gate, vite.config.ts `prerenderSignIn`): exactly those may run, nothing else
 * inline. Read once at start, as the app shell lists its files (a new build means a restart).
 */
export function inlineScriptSources(root: string | null): string[] {
  const index = root ? join(root, 'index.html') : null;
  if (!index || !existsSync(index)) return [];
  const html = readFileSync(index, 'utf8');
  return [...html.matchAll(INLINE_SCRIPT)].map(
    ([, text]) => `'sha256-${createHash('sha256').update(text!).digest('base64')}'`,
  );
}
