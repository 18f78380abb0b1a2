import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { localRows, userDbName } from './local-db';
import type { Stack } from './stack';

/** The demo technician every sync test signs in as (agency 1). */
export const TECH = { username: 'demo-tech', agencyId: 1 } as const;

/** Upstream paths of the four record kinds, as the records service counts them. */
export const PATHS = {
  site: '/v1/site',
  collection: '/v1/arthropod/collection',
  pool: '/v1/arthropod/pool',
  poolTest: '/v1/arthropod/pool/test',
} as const;

/** The tablet's outbox, read straight from IndexedDB. */
export function outbox(page: Page): Promise<Record<string, unknown>[]> {
  return localRows(page, userDbName(TECH.agencyId, TECH.username), 'outbox');
}

/** One local record table (sites, collections, pools, poolTests) read from IndexedDB. */
export function localTable(
  page: Page,
  table: 'sites' | 'collections' | 'pools' | 'poolTests',
): Promise<Record<string, unknown>[]> {
  return localRows(page, userDbName(TECH.agencyId, TECH.username), table);
}

/** Waits until the outbox on the tablet is empty (every change acknowledged). */
export async function outboxEmpties(page: Page, timeout = 45_000): Promise<void> {
  await expect
    .poll(async () => (await outbox(page)).map((e) => `${e.entity}:${e.state}`), { timeout })
    .toEqual([]);
}

/** A reference field of a record read from the server: an id, or an embedded record's id. */
export function refId(value: unknown): number {
  if (value !== null && typeof value === 'object') return Number((value as { id: unknown }).id);
  return Number(value);
}

/** POSTs that reached the records service, per path, from request `since` on. */
export function postsTo(stack: Stack, path: string, since = 0): number {
  return stack.records.requests.slice(since).filter((r) => r.method === 'POST' && r.path === path)
    .length;
}

/** Idempotency-Keys of the POSTs to `path` that reached the records service. */
export function keysPostedTo(stack: Stack, path: string): (string | null)[] {
  return stack.records.requests
    .filter((r) => r.method === 'POST' && r.path === path)
    .map((r) => r.idempotencyKey);
}

/** The sync badges on the screen on show, as their states (data-sync-state). */
export async function badgeStates(page: Page): Promise<string[]> {
  return page
    .locator('[data-sync-state]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-sync-state') ?? ''));
}
