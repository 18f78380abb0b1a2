import type { FieldError } from '#shared/schemas/error';
import { MAX_STORED_INT, STORED_INT_MESSAGE } from '#shared/schemas/common';
import { validationFailed } from '../errors';

/**
 * The shared schemas accept any safe integer; the tables hold 32-bit ones. A larger integer
 * anywhere in a body (except the float fields named in `floatFields`) is a 422 naming the
 * field, rather than a database error. An ID that large can name no record anyway.
 */
export function assertInt4(body: unknown, floatFields: readonly string[] = []): void {
  const errors: FieldError[] = [];
  const walk = (v: unknown, path: string[]) => {
    if (typeof v === 'number') {
      if (
        Number.isInteger(v) &&
        Math.abs(v) > MAX_STORED_INT &&
        !floatFields.includes(path.join('.'))
      ) {
        errors.push({ path: path.join('.') || '(body)', message: STORED_INT_MESSAGE });
      }
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, String(i)]));
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(body, []);
  if (errors.length > 0) throw validationFailed(errors);
}
