import { z } from 'zod';
import {
  INTERVALS,
  PT_ESTIMATES,
  SEPARATE_BY,
  SEX_FILTERS,
  TARGET_DISEASES,
  type ReportProblem,
} from '#shared/reports';
import type { FieldError, ProblemValues } from '#shared/schemas/error';
import { HttpError } from '../../http/http-error';

export const REPORT_NAMES = [
  'abundance',
  'abundance-anomaly',
  'infection-rate',
  'vector-index',
] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

/**
 * Most values a repeated parameter may carry (after duplicates are dropped). Every name costs a
 * look-up, and separated by species every species asked for is a row in every group: no request
 * sets its own cost (issue 36 N1). The lookups hold 18 species and 9 traps; a hosted service's
 * list is longer, but nobody compares more than this many names in one report.
 */
export const MAX_NAMES = 100;

/**
 * A query value as Fastify's parser gives it: one string, or an array for a repeated name.
 * Repeats of one value count once (`year=2025&year=2025` is one year).
 */
const many = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (v) => (v === undefined ? undefined : [...new Set([v].flat())]),
    z
      .array(item)
      .min(1)
      .max(MAX_NAMES, `At most ${MAX_NAMES} values`)
      .transform((values) => [...new Set(values)])
      .optional(),
  );
/** A name given once; repeating it is an error, not a silent pick of one value. */
const one = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (Array.isArray(v) && v.length === 1 ? v[0] : v), item.optional());
const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const year = integer(1900, 2200);
const label = z.string().trim().min(1).max(200);

/** vectorsurvR's argument names (spec "Where it runs and how it is asked for"), per report. */
const common = {
  interval: one(z.enum(INTERVALS)),
  species: many(label),
  trap: many(label),
  sex: one(z.enum(SEX_FILTERS)),
  separate_by: many(z.enum(SEPARATE_BY)),
  format: one(z.enum(['json', 'csv'])),
};
/** vectorsurvR's getAbundance stops on a trapnight_min below 1; a maximum of 0 counts nothing. */
const trapNights = {
  trapnight_min: one(integer(1, 1000)),
  trapnight_max: one(integer(0, 1000)),
};
const infection = {
  target_disease: one(z.enum(TARGET_DISEASES)),
  pt_estimate: one(z.enum(PT_ESTIMATES)),
  scale: one(z.coerce.number().positive().max(1e9)),
};

const schemas = {
  abundance: z.strictObject({ year: many(year), ...common, ...trapNights }),
  'abundance-anomaly': z.strictObject({ target_year: one(year), ...common, ...trapNights }),
  'infection-rate': z.strictObject({ year: many(year), ...common, ...infection }),
  'vector-index': z.strictObject({ year: many(year), ...common, ...trapNights, ...infection }),
};

export type ReportQuery = {
  year?: number[];
  target_year?: number;
  interval?: (typeof INTERVALS)[number];
  species?: string[];
  trap?: string[];
  sex?: (typeof SEX_FILTERS)[number];
  separate_by?: (typeof SEPARATE_BY)[number][];
  format?: 'json' | 'csv';
  trapnight_min?: number;
  trapnight_max?: number;
  target_disease?: (typeof TARGET_DISEASES)[number];
  pt_estimate?: (typeof PT_ESTIMATES)[number];
  scale?: number;
};

/**
 * 400 bad_request (contract §2) for a query string whose percent-encoding cannot be decoded: the
 * parser would otherwise pass the undecoded text on, and a garbled species name would quietly
 * give a report of nothing.
 */
export function assertReadableQuery(url: string): void {
  const at = url.indexOf('?');
  if (at < 0) return;
  for (const part of url.slice(at + 1).split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw new HttpError(400, 'bad_request', 'The query string is not valid percent-encoding');
    }
  }
}

/**
 * A report's query string → its parameters, or 422 validation_failed naming every failing
 * parameter (unknown names too: a misspelt filter must not quietly report everything).
 */
export function parseReportQuery(name: ReportName, query: unknown): ReportQuery {
  const parsed = schemas[name].safeParse(query ?? {});
  const fields: FieldError[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          fields.push({
            path: key,
            message: 'Unknown parameter',
            ...said('unknown_parameter', { parameter: key }),
          });
        }
      } else if (issue.code === 'too_big' && issue.origin === 'array') {
        fields.push({
          path: String(issue.path[0] ?? ''),
          message: issue.message,
          ...said('too_many_values', { max: MAX_NAMES }),
        });
      } else if (issue.code === 'too_big' && issue.origin === 'number') {
        fields.push({
          path: String(issue.path[0] ?? ''),
          message: issue.message,
          ...said('above_max', { max: Number(issue.maximum) }),
        });
      } else if (issue.code === 'too_small' && issue.origin === 'number') {
        fields.push({
          path: String(issue.path[0] ?? ''),
          message: issue.message,
          ...said('below_min', { min: Number(issue.minimum) }),
        });
      } else {
        fields.push({
          path: String(issue.path[0] ?? ''),
          message: issue.message,
          ...said('invalid_value'),
        });
      }
    }
  } else {
    const q = parsed.data as ReportQuery;
    if (
      q.trapnight_min !== undefined &&
      q.trapnight_max !== undefined &&
      q.trapnight_min > q.trapnight_max
    ) {
      fields.push({
        path: 'trapnight_max',
        message: 'Must be at least trapnight_min',
        ...said('trapnights_order', { min: q.trapnight_min }),
      });
    }
    if (fields.length === 0) return q;
  }
  throw new HttpError(
    422,
    'validation_failed',
    `These report parameters are not valid: ${[...new Set(fields.map((f) => f.path))].join(', ')}`,
    fields,
  );
}

/** A refusal's stable code and values (issue 38), beside its English message. */
export function said(
  problem: ReportProblem,
  values?: ProblemValues,
): { problem: ReportProblem; values?: ProblemValues } {
  return values ? { problem, values } : { problem };
}
