import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/server/http/http-error';
import { isPathId, parsePathId } from '../../../src/server/http/path-id';

/** The 404 body parsePathId answers for `raw`, or null when it names a record id. */
function refusal(raw: unknown) {
  try {
    parsePathId(raw, 'Pool');
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return { status: (err as HttpError).status, body: (err as HttpError).toBody() };
  }
}

describe('record ids in paths', () => {
  it('reads a positive integer the records service can store', () => {
    expect(parsePathId('1', 'Pool')).toBe(1);
    expect(parsePathId('4821', 'Pool')).toBe(4821);
    expect(parsePathId('2147483647', 'Pool')).toBe(2147483647);
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
