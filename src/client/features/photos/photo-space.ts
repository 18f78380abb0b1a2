/**
 * Whether `bytes` more fit in the browser's storage for this site, with room to spare for the
 * records (a quarter of what is left stays free). Unknown (no StorageManager) counts as fitting:
 * the write itself then fails with the browser's QuotaExceededError, which the screen shows.
 */
export async function photoFits(
  bytes: number,
): Promise<{ fits: boolean; freeBytes: number | null }> {
  const estimate = await navigator.storage?.estimate?.().catch(() => null);
  if (!estimate || estimate.quota === undefined || estimate.usage === undefined) {
    return { fits: true, freeBytes: null };
  }
  const free = estimate.quota - estimate.usage;
  return { fits: bytes <= free * 0.75, freeBytes: free };
}
