/**
 * What a Trapline label or trap tag carries in its code, and how a scanned text is read back.
 *
 * Payloads (documented in README "Labels and scanning"):
 * - pool label  `TRAPLINE:P:<agency id>:<pool id>:<pool number>`  e.g. `TRAPLINE:P:1:4711:82`
 * - site tag    `TRAPLINE:S:<agency id>:<site id>`                  e.g. `TRAPLINE:S:1:37`
 * - a trap tag the district already has: the site's 6-digit code (`104233`) or its name.
 *
 * Only upper-case letters, digits and ':' are used, all in the QR alphanumeric set, so a pool
 * label's QR stays small (version 2 at most, 25 modules) and prints sharp on a 1-inch label.
 * Ids are the records service's (server) ids: a label is printed only once its pool is synced,
 * and the number the lab reads is in the payload so a scan can say which pool it expected even
 * when the tablet does not hold it.
 */

import { MAX_STORED_INT } from '../schemas/common';

export type PoolLabel = { agency: number; poolId: number; poolNumber: number };
export type SiteTag = { agency: number; siteId: number };

export type ScannedCode =
  | ({ kind: 'pool' } & PoolLabel)
  | ({ kind: 'site' } & SiteTag)
  /** A bare 6-digit site code (contract §3), as on a trap tag's barcode. */
  | { kind: 'site-code'; code: string }
  /** Any other text: maybe a site's name on an older tag; the lookup decides. */
  | { kind: 'text'; text: string }
  /** A Trapline code that is damaged or of a kind this version does not know. */
  | { kind: 'invalid'; text: string };

const PREFIX = 'TRAPLINE:';
/** Longest text worth looking up as a site name (the schema's names are shorter). */
const MAX_TEXT = 200;

/** The records service's ids and numbers are int4 (contract §3: positive integers). */
function positiveInt(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_STORED_INT) {
    throw new RangeError(`${what} must be a positive whole number, not ${String(value)}`);
  }
  return value;
}

/** A positive int4 written without sign or leading zeros, else null. */
function readId(text: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const n = Number(text);
  return n <= MAX_STORED_INT ? n : null;
}

export function encodePoolLabel(label: PoolLabel): string {
  const agency = positiveInt(label.agency, 'agency');
  const poolId = positiveInt(label.poolId, 'poolId');
  const poolNumber = positiveInt(label.poolNumber, 'poolNumber');
  return `${PREFIX}P:${agency}:${poolId}:${poolNumber}`;
}

export function encodeSiteTag(tag: SiteTag): string {
  return `${PREFIX}S:${positiveInt(tag.agency, 'agency')}:${positiveInt(tag.siteId, 'siteId')}`;
}

/** Reads a scanned text; never throws (a camera sees all sorts of codes). */
export function decodeScannedCode(raw: string): ScannedCode {
  const text = raw.trim();
  if (text.toUpperCase().startsWith(PREFIX)) {
    const parts = text.slice(PREFIX.length).split(':');
    const ids = parts.slice(1).map(readId);
    const [kind] = parts;
    if (kind.toUpperCase() === 'P' && ids.length === 3 && ids.every((n) => n !== null)) {
      const [agency, poolId, poolNumber] = ids as number[];
      return { kind: 'pool', agency, poolId, poolNumber };
    }
    if (kind.toUpperCase() === 'S' && ids.length === 2 && ids.every((n) => n !== null)) {
      const [agency, siteId] = ids as number[];
      return { kind: 'site', agency, siteId };
    }
    return { kind: 'invalid', text };
  }
  if (/^\d{6}$/.test(text)) return { kind: 'site-code', code: text };
  if (text.length === 0 || text.length > MAX_TEXT) return { kind: 'invalid', text };
  return { kind: 'text', text };
}
