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

export async function fetchConfig(): Promise<AppConfig> {
  try {
    const res = await request<unknown>('/api/config', { timeoutMs: 10_000 });
    const parsed = res.ok ? appConfig.safeParse(res.body) : null;
    if (parsed?.success) {
      localStorage.setItem(KEY, JSON.stringify(parsed.data));
      return parsed.data;
    }
  } catch {
    // offline: the cached value serves
  }
  return cachedConfig();
}
