import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/server/http/http-error';
import { isPathId, recordIdParams } from '../../../src/server/http/path-id';
import { contractValidator } from '../../../src/server/records/route-validation';

/** A record path's params as the records service reads them (its route schema). */
const readParams = contractValidator({
  schema: recordIdParams('Pool'),
  httpPart: 'params',
  method: 'GET',
  url: '/v1/arthropod/pool/:id',
}) as (data: unknown) => { value?: { id: number }; error?: Error };

/** The 404 body the route answers for `raw`, or null when it names a record id. */
function refusal(raw: unknown) {
  const { error } = readParams({ id: raw });
  if (!error) return null;
  expect(error).toBeInstanceOf(HttpError);
  return { status: (error as HttpError).status, body: (error as HttpError).toBody() };
}

describe('record ids in paths', () => {
  it('reads a positive integer the records service can store, as a number', () => {
    expect(readParams({ id: '1' }).value).toEqual({ id: 1 });
    expect(readParams({ id: '4821' }).value).toEqual({ id: 4821 });
    expect(readParams({ id: '2147483647' }).value).toEqual({ id: 2147483647 });
  });

  it('answers 404 "not found" for anything that names no record, never a 400 or a 500', () => {
    for (const raw of [
      '0',
      '-1',
      'abc',
      '1.5',
      '1e3',
      ' 7',
      '007',
      '',
      '2147483648',
      '9'.repeat(40),
    ]) {
      expect(refusal(raw), raw).toEqual({
        status: 404,
        body: { error: { code: 'not_found', message: 'Pool not found' } },
      });
    }
    expect(refusal(undefined)?.status).toBe(404);
  });

  it('lets the BFF forward any id an upstream may use, and nothing else', () => {
    expect(isPathId('2147483648')).toBe(true);
    expect(isPathId('9007199254740991')).toBe(true);
    for (const raw of ['0', '01', 'abc', '1/2', '..', '12345678901234567'])
      expect(isPathId(raw)).toBe(false);
  });
});
