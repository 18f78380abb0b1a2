import { z } from 'zod';
import { wellFormed } from './text';

/** Every `error.code` the records service and the BFF answer with (contract §2, ARCHITECTURE BFF). */
export const ERROR_CODES = [
  'bad_request',
  'unauthenticated',
  'token_expired',
  'token_renewed',
  'invalid_credentials',
  'https_required',
  'forbidden',
  'csrf_required',
  'not_found',
  'method_not_allowed',
  'site_code_taken',
  'collection_num_taken',
  'pool_num_taken',
  'username_taken',
  'idempotency_in_flight',
  'idempotency_key_reused',
  // The BFF cannot prove whether a create whose answer was lost reached the upstream (409).
  'create_outcome_unknown',
  'payload_too_large',
  'unsupported_media_type',
  'validation_failed',
  'location_required',
  'mixed_condition_conflict',
  'pool_count_exceeds_abundance',
  'test_before_collection',
  // People (contract §10): a manager's own account, the agency's last active manager.
  'own_account',
  'last_manager',
  // A temporary password: changed at the first sign-in, refused once expired (README, People).
  'password_change_required',
  'temporary_password_expired',
  'rate_limited',
  // Photos (contract §13): the agency's photo storage is full; a tus PATCH at the wrong offset.
  'quota_exceeded',
  'upload_offset_mismatch',
  'reauth_required',
  'upstream_unavailable',
  'upstream_timeout',
  // The BFF's report worker ended (a report outgrew its heap): 503, try again (issue 36).
  'report_unavailable',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * What a problem's sentence names (a field, a name, a limit, a row number), kept apart from the
 * English `message` so that a client says the sentence in the person's language (issue 38).
 * A list of names stays a list: the client joins it the way its language does.
 */
export const problemValues = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.array(z.string())]),
);
export type ProblemValues = z.infer<typeof problemValues>;

/**
 * One failing field (contract §2). `problem` and `values` are additive (issue 38): a stable code
 * for the sentence and what it names, where the BFF says a sentence a person meets (report
 * parameters, site import rows). `message` stays the English sentence for every other reader.
 */
export const fieldError = z.object({
  path: z.string(),
  message: z.string(),
  problem: z.string().optional(),
  values: problemValues.optional(),
});
export type FieldError = z.infer<typeof fieldError>;

/** `{ error: { code, message, fields? } }`. Codes are open-ended so unknown upstream codes parse. */
export const errorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.array(fieldError).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBody>;

/**
 * zod issues → the contract's `fields` list: every failing field, with a dotted path
 * (`arthropods.2.num_count`), "Required" for a missing field. zod 4 does not keep the input in
 * its issues, so a field counts as missing when its path is absent from `input` (or, without
 * `input`, when zod says it received undefined).
 */
export function fieldsFromZod(error: z.ZodError, input?: unknown): FieldError[] {
  return error.issues.map((issue) => {
    // Well-formed: a field name may hold a lone surrogate, and the answer is stored as jsonb.
    const path = wellFormed(issue.path.map(String).join('.')) || '(body)';
    const missing =
      issue.code === 'invalid_type' &&
      (input === undefined
        ? /received undefined/.test(issue.message)
        : valueAt(input, issue.path) === undefined);
    let message = missing ? 'Required' : issue.message;
    if (issue.code === 'unrecognized_keys') {
      message = wellFormed(
        `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`,
      );
    }
    return { path, message };
  });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** One-line summary for `error.message`: the first field problem in words. */
export function summarizeFields(fields: FieldError[]): string {
  if (fields.length === 0) return 'The request is not valid';
  const [first] = fields;
  const head =
    first.message === 'Required' ? `${first.path} is required` : `${first.path}: ${first.message}`;
  return fields.length > 1 ? `${head} (and ${fields.length - 1} more)` : head;
}
