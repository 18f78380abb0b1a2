import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { request } from './http';

/** GET /api/config, cached in localStorage so the map knows its tiles offline. */
const KEY = 'trapline.config';
const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const appConfig = z.object({ tileUrl: z.string().min(1) }).loose();
export type AppConfig = z.infer<typeof appConfig>;

export function cachedConfig(): AppConfig {
  try {
    const parsed = appConfig.safeParse(JSON.parse(localStorage.getItem(KEY) ?? 'null'));
    if (parsed.success) return parsed.data;
  } catch {
    // fall through to the default
  }
  return { tileUrl: DEFAULT_TILE_URL };
}

const listeners = new Set<() => void>();

/**
 * The kept config, live: a map drawn before this start's GET /api/config answered is drawn again
 * with the office's new settings (another tile server) when it does, not on the next screen.
 * The snapshot is the kept text, so an unchanged answer renders nothing again.
 */
export function useConfigVersion(): string {
  return useSyncExternalStore(
    (notify) => {
      listeners.add(notify);
      return () => listeners.delete(notify);
    },
    () => localStorage.getItem(KEY) ?? '',
  );
}

/** The map's credit line as the office set it (plain text); empty from a BFF that says none. */
export function cachedTileCredit(): string {
  const credit = cachedConfig().tileAttribution;
  return typeof credit === 'string' ? credit : '';
}

export async function fetchConfig(): Promise<AppConfig> {
  try {
    const res = await request<unknown>('/api/config', { timeoutMs: 10_000 });
    const parsed = res.ok ? appConfig.safeParse(res.body) : null;
    if (parsed?.success) {
      const text = JSON.stringify(parsed.data);
      if (localStorage.getItem(KEY) !== text) {
        localStorage.setItem(KEY, text);
        for (const notify of listeners) notify();
      }
      return parsed.data;
    }
  } catch {
    // offline: the cached value serves
  }
  return cachedConfig();
}
