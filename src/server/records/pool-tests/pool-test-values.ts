import type { Queryable } from '../../db/database';
import type { FieldError } from '#shared/schemas/error';
import type { PoolTestCreate } from '#shared/schemas/pool-test';
import {
  ctOutOfRange,
  latestServiceTestDay,
  poolTestValueMessages,
  reportsCt,
  testDateTooLate,
  writtenDay,
} from '#shared/rules';

/**
 * Issue 35 (6), the records service's side of rules/pool-test-values.ts: a test dated after
 * the service's UTC day + 1, and a PCR method's Ct outside 0–45, as field errors (the negative
 * value is the shared schema's). `stored` is the test as it stands, for a PUT: a Ct is checked
 * with the method it will have, when either is sent, so an edit that only changes comments
 * never trips over a value stored before the rule. A test date is checked only when sent.
 */
export async function poolTestValueErrors(
  q: Queryable,
  body: Partial<Pick<PoolTestCreate, 'method' | 'value' | 'test_date'>>,
  stored: { method: number; value: number | string | null } | null,
  now: Date,
): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  if (body.test_date != null) {
    const day = writtenDay(body.test_date);
    const latest = latestServiceTestDay(now);
    if (testDateTooLate(day, latest)) {
      errors.push({
        path: 'test_date',
        message: poolTestValueMessages.serviceTestDate(day, latest),
      });
    }
  }
  if (body.method === undefined && body.value === undefined) return errors;
  const method = body.method ?? stored?.method;
  const raw = body.value !== undefined ? body.value : stored?.value;
  // numeric columns come back as strings; null means no value.
  const value = raw == null ? null : Number(raw);
  if (method == null || value === null || !Number.isFinite(value) || !ctOutOfRange(value)) {
    return errors;
  }
  const { rows } = await q.query<{ name: string | null; acronym: string | null }>(
    'select name, acronym from test_method where id = $1',
    [method],
  );
  // An unknown method is the lookup check's to name.
  if (rows[0] && reportsCt(rows[0])) {
    errors.push({ path: 'value', message: poolTestValueMessages.ct(value) });
  }
  return errors;
}
