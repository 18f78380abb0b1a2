import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '#shared/schemas/error';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import { makeCollection, tableCounts } from '../helpers/arthropod-fixtures';
import { makeSite } from '../factories/make-site';

/**
 * Issue 36 N5: a text field holding a lone UTF-16 surrogate (`"x \ud800 y"`, valid JSON, no
 * character) made a keyed create answer 500 (its stored answer is jsonb, which refuses it, and
 * the create rolled back), while the same create without a key stored U+FFFD. Now both are a
 * 422 naming the field, and nothing is stored.
 */

let t: TestRecords;
let token: string;
beforeAll(async () => {
  t = await buildTestRecords();
  token = await t.login('demo-tech');
}, 60_000);
afterAll(async () => t?.close());

const post = (url: string, payload: unknown, key?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...t.auth(token), ...(key ? { 'idempotency-key': key } : {}) },
    payload: payload as object,
  });

const BROKEN = 'x \ud800 y';
const CASES: Array<[string, string, Record<string, unknown>]> = [
  ['/v1/site', 'name', makeSite({ name: BROKEN })],
  ['/v1/site', 'comments', makeSite({ comments: BROKEN })],
  ['/v1/site', 'city', makeSite({ city: 'Davis \udc00' })],
  ['/v1/site', 'site_land_usage_custom.0', makeSite({ site_land_usage_custom: [BROKEN] })],
  ['/v1/arthropod/collection', 'comments', makeCollection({ comments: BROKEN })],
  ['/v1/arthropod/collection', 'identified_by', makeCollection({ identified_by: '\udbff' })],
];

describe('a lone surrogate in a text field', () => {
  it.each(
    CASES.flatMap(([url, field, body]) => [
      [url, field, 'without', body] as const,
      [url, field, 'with', body] as const,
    ]),
  )(
    '%s %s (%s a key) → 422 naming the field, nothing stored',
    async (url, field, withKey, body) => {
      const before = await tableCounts(t);
      const res = await post(url, body, withKey === 'with' ? randomUUID() : undefined);
      expect(res.statusCode, res.body).toBe(422);
      const { error } = errorBody.parse(res.json());
      expect(error.code).toBe('validation_failed');
      expect(error.fields?.map((f) => f.path)).toContain(field);
      expect(error.fields?.find((f) => f.path === field)?.message).toMatch(/broken character/);
      expect(await tableCounts(t)).toEqual(before);
    },
  );

  it('is refused on PUT too (422, the record unchanged)', async () => {
    const created = await post('/v1/arthropod/collection', makeCollection({ comments: 'fine' }));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/arthropod/collection/${id}`,
      headers: t.auth(token),
      payload: { comments: BROKEN },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.fields[0].path).toBe('comments');
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/arthropod/collection/${id}`,
      headers: t.auth(token),
    });
    expect(read.json().comments).toBe('fine');
  });

  it('in a field name, with a key: 422 with a well-formed answer, never 500', async () => {
    const key = randomUUID();
    const res = await post('/v1/arthropod/collection', { ...makeCollection(), 'a\ud800': 1 }, key);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.body).not.toMatch(/\\ud800/i);
    // The retry with the same key is answered the same way (nothing half-stored).
    const again = await post(
      '/v1/arthropod/collection',
      { ...makeCollection(), 'a\ud800': 1 },
      key,
    );
    expect(again.statusCode, again.body).toBe(422);
  });

  it('still accepts paired surrogates (emoji, CJK extension B) as typed', async () => {
    const res = await post(
      '/v1/arthropod/collection',
      makeCollection({ comments: 'pool near 🦟 𠀀' }),
      randomUUID(),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().comments).toBe('pool near 🦟 𠀀');
  });
});
