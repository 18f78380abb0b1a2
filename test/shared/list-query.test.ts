import { describe, expect, it } from 'vitest';
import {
  decodeListQuery,
  encodeListQuery,
  LIST_QUERY_LIMITS,
  ListQueryError,
} from '#shared/list-query';

function refusal(fn: () => unknown): ListQueryError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ListQueryError);
    return err as ListQueryError;
  }
  throw new Error('expected a refusal');
}

describe('decodeListQuery', () => {
  it('nests Mongoose-style bracket keys and lists', () => {
    const tree = decodeListQuery(
      '/v1/x?query[surv_year][$between][0]=2025&query[surv_year][$between][1]=2026&populate[]=site&populate[]=trap',
    );
    expect(JSON.parse(JSON.stringify(tree))).toEqual({
      query: { surv_year: { $between: ['2025', '2026'] } },
      populate: ['site', 'trap'],
    });
  });

  it('decodes percent-escapes and plus signs in keys and values', () => {
    const tree = decodeListQuery('query%5Bcomments%5D=West+Sac%20pond');
    expect(JSON.parse(JSON.stringify(tree))).toEqual({ query: { comments: 'West Sac pond' } });
  });

  it('keeps names that plain objects answer to as own keys', () => {
    const tree = decodeListQuery('query[constructor]=1&sort[toString]=1');
    expect(Object.keys(tree.query)).toEqual(['constructor']);
    expect(Object.getPrototypeOf(tree)).toBeNull();
  });

  it('refuses __proto__ as an unknown name, with the path a 422 names', () => {
    expect(refusal(() => decodeListQuery('query[__proto__]=1'))).toMatchObject({
      kind: 'unknown_name',
      path: 'query.__proto__',
    });
    expect(refusal(() => decodeListQuery('query[id][__proto__]=1')).path).toBe(
      'query.id.__proto__',
    );
    expect(refusal(() => decodeListQuery('sort[__proto__]=1')).path).toBe('sort');
  });

  it('refuses a malformed escape, a malformed key or conflicting shapes', () => {
    for (const raw of ['search=%E0%A4%A', 'query[site=4', 'query[site]=4&query[site][$gt]=2'])
      expect(refusal(() => decodeListQuery(raw)).kind, raw).toBe('bad_request');
  });

  it('refuses what is past its limits, and reads what is at them', () => {
    const { depth, parameters, items, length } = LIST_QUERY_LIMITS;
    const deep = (n: number) => `a${'[b]'.repeat(n)}=1`;
    expect(() => decodeListQuery(deep(depth))).not.toThrow();
    expect(refusal(() => decodeListQuery(deep(depth + 1))).kind).toBe('bad_request');
    const many = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=1`).join('&');
    expect(Object.keys(decodeListQuery(many(parameters)))).toHaveLength(parameters);
    expect(refusal(() => decodeListQuery(many(parameters + 1))).kind).toBe('bad_request');
    expect(decodeListQuery(`a[${items - 1}]=1`).a).toEqual(['1']);
    expect(refusal(() => decodeListQuery(`a[${items + 1}]=1`)).kind).toBe('bad_request');
    expect(refusal(() => decodeListQuery(`s=${'x'.repeat(length)}`)).kind).toBe('bad_request');
  });
});

describe('encodeListQuery', () => {
  it('writes filters with indices and plain lists with [], brackets and $ encoded', () => {
    const qs = encodeListQuery({
      pageSize: 1000,
      sort: 'id',
      fields: ['id'],
      query: { id: { $gt: 41 }, pool: { $in: [4, 9] }, collection_date: { $gte: '2026-07-01' } },
      type: 'tick',
      search: undefined,
    });
    expect(decodeURIComponent(qs)).toBe(
      'pageSize=1000&sort=id&fields[]=id&type=tick&query[id][$gt]=41&query[pool][$in][0]=4&query[pool][$in][1]=9&query[collection_date][$gte]=2026-07-01',
    );
    expect(qs).toContain('query%5Bid%5D%5B%24gt%5D=41');
  });

  it('reads back as it was written', () => {
    const params = {
      populate: ['site', 'trap'],
      query: { comments: 'West Sac & pond', surv_year: { $between: ['2025', '2026'] } },
    };
    expect(JSON.parse(JSON.stringify(decodeListQuery(encodeListQuery(params))))).toEqual(params);
  });
});
