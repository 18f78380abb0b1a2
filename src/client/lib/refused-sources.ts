import { useSyncExternalStore } from 'react';

/**
 * Outside origins this page's Content-Security-Policy refused (its `securitypolicyviolation`
 * events). A refused tile looks like a failed one to the map and to fetch(): a tile server the
 * policy does not allow would otherwise be reported as "no signal". Watched from the first
 * module loaded (main.tsx), so no refusal before the map appears is missed.
 */
const refused = new Set<string>();
const listeners = new Set<() => void>();

export function watchRefusedSources(): void {
  document.addEventListener('securitypolicyviolation', (e) => {
    let origin: string;
    try {
      origin = new URL(e.blockedURI).origin;
    } catch {
      return; // 'inline', 'eval' and the like: not a source of tiles
    }
    if (refused.has(origin)) return;
    refused.add(origin);
    for (const notify of listeners) notify();
  });
}

/** Whether a tile template's server was refused ({s} matches any subdomain, as Leaflet fills it). */
export function isTemplateRefused(template: string): boolean {
  const m = /^(https?:\/\/)([^/]+)/.exec(template);
  if (!m) return false;
  const escaped = m[2].replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{s\\?\}/g, '[^.]+');
  const pattern = new RegExp(`^${m[1].replace(/\//g, '\\/')}${escaped}$`);
  return [...refused].some((origin) => pattern.test(origin));
}

function subscribe(notify: () => void) {
  listeners.add(notify);
  return () => listeners.delete(notify);
}

/** Live: true once the page has refused the template's server. */
export function useTemplateRefused(template: string | null): boolean {
  return useSyncExternalStore(
    subscribe,
    () => (template ? isTemplateRefused(template) : false),
    () => false,
  );
}
