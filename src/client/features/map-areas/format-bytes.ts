import type { IntlShape } from 'react-intl';

/** Bytes as a person reads them on a tablet: "840 kB", "12.4 MB", "1.25 GB". */
export function formatBytes(bytes: number): string {
  if (bytes <= 0) return '0 kB';
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000))} kB`;
  if (bytes < 1_000_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${(bytes / 1_000_000_000).toFixed(2)} GB`;
}

/** `formatBytes` in the person's language: "840 kB", "12,4 MB" (the same steps and digits). */
export function bytesIn(intl: IntlShape, bytes: number): string {
  const unit = (value: number, u: 'kilobyte' | 'megabyte' | 'gigabyte', digits: number) =>
    intl.formatNumber(value, {
      style: 'unit',
      unit: u,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
  if (bytes <= 0) return unit(0, 'kilobyte', 0);
  if (bytes < 1_000_000) return unit(Math.max(1, Math.round(bytes / 1000)), 'kilobyte', 0);
  if (bytes < 1_000_000_000) return unit(bytes / 1_000_000, 'megabyte', 1);
  return unit(bytes / 1_000_000_000, 'gigabyte', 2);
}
