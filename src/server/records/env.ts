import { z } from 'zod';
import { EnvError } from '../env-error';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(s: T) => z.preprocess(emptyToUndefined, s.optional());

/** The records service's environment (ARCHITECTURE run contract), parsed once at start-up. */
export const recordsEnvSchema = z
  .object({
    RECORDS_PORT: z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(0).max(65535).default(8081),
    ),
    HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
    TRAPLINE_DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./.trapline')),
    DATABASE_URL: optional(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' }),
    ),
    TRAPLINE_TOKEN_TTL_S: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .int()
        .min(1)
        .max(31 * 86_400)
        .default(3600),
    ),
    TRAPLINE_RENEW_WINDOW_S: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .int()
        .min(0)
        .max(90 * 86_400)
        .default(7 * 86_400),
    ),
    TRAPLINE_DEMO_PASSWORD: optional(
      z.string().min(8, { message: 'must be at least 8 characters' }),
    ),
    /** Comma-separated proxy addresses whose X-Forwarded-Proto is believed. */
    TRUST_PROXY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default('')
        .transform((s) =>
          s
            .split(',')
            .map((a) => a.trim())
            .filter(Boolean),
        )
        .pipe(z.array(z.union([z.ipv4(), z.ipv6()], { message: 'must be IP addresses' }))),
    ),
    TLS_CERT: optional(z.string()),
    TLS_KEY: optional(z.string()),
  })
  .refine((e) => Boolean(e.TLS_CERT) === Boolean(e.TLS_KEY), {
    message: 'set both TLS_CERT and TLS_KEY, or neither',
    path: ['TLS_KEY'],
  });
export type RecordsEnv = z.infer<typeof recordsEnvSchema>;

/** Parses an environment; throws EnvError listing every problem. */
export function parseRecordsEnv(
  source: Record<string, string | undefined> = process.env,
): RecordsEnv {
  const result = recordsEnvSchema.safeParse(source);
  if (!result.success) {
    throw EnvError.of(result.error);
  }
  return result.data;
}

/** For entry points: the parsed environment, or a list of what is wrong and exit code 1. */
export function loadRecordsEnv(): RecordsEnv {
  try {
    return parseRecordsEnv();
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
