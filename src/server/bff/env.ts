import { existsSync } from 'node:fs';
import { z } from 'zod';
import { DEFAULT_PHOTO_QUOTA_MB } from './attachments/photo-quota';
import { EnvError } from '../env-error';
import { parseSessionKey } from './session-key';

const port = z.coerce.number().int().min(0).max(65535);
const positiveMs = z.coerce.number().int().positive();
const url = z.url({ protocol: /^https?$/ });

const envSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  RECORDS_PORT: port.default(8081),
  UPSTREAM_URL: url.optional(),
  /**
   * https, or plain http to a tile server on this machine (the CSP allows loopback http and no
   * other: tiles over plain http from another host could be altered on the way). Not by its IPv6
   * address: a CSP source cannot name one ('http://[::1]:*' is dropped by Chromium as invalid,
   * so its tiles were refused), and localhost reaches the same server.
   */
  TILE_URL: z
    .string()
    .regex(/^(https:\/\/[^/]+|http:\/\/(127\.0\.0\.1|localhost)(:\d+)?)\/.*\{z\}.*\{x\}.*\{y\}/, {
      message:
        'TILE_URL must be an https URL template with {z}, {x} and {y} ' +
        '(or http://127.0.0.1 or http://localhost for a tile server on this machine; ' +
        'not [::1]: a browser’s security policy cannot name an IPv6 address)',
    })
    .default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  /**
   * The map's credit line, as plain text (e.g. "© OpenStreetMap contributors, © MapTiler").
   * Unset: OpenStreetMap's credit for the default server, the tile host's name for another.
   */
  TILE_ATTRIBUTION: z.string().trim().min(1).max(300).optional(),
  /**
   * Whether TILE_URL's server allows bulk downloading (the app's offline map areas). Off by
   * default: the OpenStreetMap tile server forbids it, and so do most free tile servers.
   */
  TILE_BULK_DOWNLOAD: z.enum(['allowed', 'forbidden']).default('forbidden'),
  /**
   * A raster PMTiles v3 archive the agency hosts (PNG/JPEG/WebP tiles): the BFF serves it at
   * /map/archive.pmtiles and the map draws from it instead of TILE_URL. Area downloads are always
   * offered for it: it is the agency's own map.
   */
  TILE_PMTILES: z.string().min(1).optional(),
  TRAPLINE_DATA_DIR: z.string().min(1).default('./.trapline'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be postgres://…' })
    .optional(),
  TRAPLINE_LOOKUP_CATALOG: z.string().min(1).optional(),
  TRAPLINE_UPSTREAM_CONNECT_TIMEOUT_MS: positiveMs.default(5_000),
  TRAPLINE_UPSTREAM_TIMEOUT_MS: positiveMs.default(30_000),
  TRAPLINE_LOOKUP_TTL_S: z.coerce.number().int().positive().default(300),
  TRAPLINE_TOKEN_TTL_S: z.coerce.number().int().positive().default(3600),
  /** How long after its expiry a sign-in is still renewed on the tablet's next request. */
  TRAPLINE_RENEW_WINDOW_S: z.coerce
    .number()
    .int()
    .min(0)
    .max(90 * 86_400)
    .default(7 * 86_400),
  TLS_CERT: z.string().min(1).optional(),
  TLS_KEY: z.string().min(1).optional(),
  /**
   * Seals the upstream tokens in the session table. Unset: generated once into
   * <TRAPLINE_DATA_DIR>/session-key. BFF processes sharing one PostgreSQL must all have the same.
   */
  TRAPLINE_SESSION_KEY: z
    .string()
    .transform((text, ctx) => {
      const key = parseSessionKey(text);
      if (key) return key;
      ctx.addIssue({
        code: 'custom',
        message:
          'TRAPLINE_SESSION_KEY must be 32 bytes written as 64 hex digits or in base64 ' +
          '(e.g. the output of `openssl rand -base64 32`)',
      });
      return z.NEVER;
    })
    .optional(),
  /**
   * Open connections one client address may hold at once (0: no cap). Loopback is not counted
   * (a reverse proxy on the same machine); raise it when many tablets share one address (NAT).
   */
  TRAPLINE_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(128),
  /** Megabytes of photos one agency may store on the BFF (contract §13; README "Photos"). */
  TRAPLINE_PHOTO_QUOTA_MB: z.coerce.number().int().positive().default(DEFAULT_PHOTO_QUOTA_MB),
  /**
   * Both servers' log level. `warn` by default: `npm start` runs in a person's terminal, where a
   * JSON line per request buried the URL and the demo password; `info` adds one per request.
   */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
});

export type BffEnv = z.infer<typeof envSchema>;

/** Parses the environment once at start-up; empty strings count as unset. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): BffEnv {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ''),
  );
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw EnvError.of(result.error);
  }
  if (Boolean(result.data.TLS_CERT) !== Boolean(result.data.TLS_KEY)) {
    throw new EnvError(['TLS_CERT and TLS_KEY must be set together']);
  }
  if (result.data.TILE_PMTILES && !existsSync(result.data.TILE_PMTILES)) {
    throw new EnvError([`TILE_PMTILES: no file at ${result.data.TILE_PMTILES}`]);
  }
  if (
    result.data.TILE_BULK_DOWNLOAD === 'allowed' &&
    /^https:\/\/([^/]*\.)?tile\.openstreetmap\.org\//.test(result.data.TILE_URL)
  ) {
    throw new EnvError([
      'TILE_BULK_DOWNLOAD: tile.openstreetmap.org forbids bulk downloading ' +
        '(https://operations.osmfoundation.org/policies/tiles/); set TILE_URL to a tile server ' +
        'that allows it, or leave TILE_BULK_DOWNLOAD unset',
    ]);
  }
  return result.data;
}
