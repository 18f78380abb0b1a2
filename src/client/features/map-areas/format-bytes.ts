/** Bytes as a person reads them on a tablet: "840 kB", "12.4 MB", "1.25 GB". */
export function formatBytes(bytes: number): string {
  if (bytes <= 0) return '0 kB';
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000))} kB`;
  if (bytes < 1_000_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${(bytes / 1_000_000_000).toFixed(2)} GB`;
}
