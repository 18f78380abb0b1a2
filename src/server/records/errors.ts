import type { z } from 'zod';
import { unstorableStrings } from './storable';
import {
  fieldsFromZod,
  summarizeFields,
  type ErrorCode,
  type FieldError,
} from '#shared/schemas/error';
import { HttpError } from '../http/http-error';

export const notFound = (what = 'Record') => new HttpError(404, 'not_found', `${what} not found`);
export const forbidden = (message: string) => new HttpError(403, 'forbidden', message);

/** 422 with every failing field listed. */
export function validationFailed(
  fields: FieldError[],
  code: ErrorCode = 'validation_failed',
  message?: string,
) {
  return new HttpError(422, code, message ?? summarizeFields(fields), fields);
}

/** Each (path, message) once: the schema and the storage check may both refuse one text. */
function distinct(fields: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return fields.filter((f) => {
    const id = `${f.path}\n${f.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Parses a body with a shared schema, or throws 422 listing every failing field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validationFailed([{ path: '(body)', message: 'Send a JSON object' }]);
  }
  const result = schema.safeParse(body);
  // Text PostgreSQL refuses (NUL) is a 422 here, never a 500 at insert time.
  const unstorable = unstorableStrings(body);
  if (!result.success)
    throw validationFailed(distinct([...fieldsFromZod(result.error, body), ...unstorable]));
  if (unstorable.length > 0) throw validationFailed(unstorable);
  return result.data;
}
