import { describe, expect, it } from 'vitest';
import { applyFields, parseListQuery, type ListSpec } from '../../../../src/server/records/list';
import { HttpError } from '../../../../src/server/http/http-error';

const SPEC: ListSpec = {
  fields: {
    id: { sql: 'c.id', type: 'int' },
    site: { sql: 'c.site', type: 'int' },
    surv_year: { sql: 'c.surv_year', type: 'int' },
    collection_date: { sql: 'c.collection_date', type: 'date' },
    comments: { sql: 'c.comments', type: 'text' },
    identified_by: { sql: 'c.identified_by', type: 'text' },
    trap_problem_bit: { sql: 'c.trap_problem_bit', type: 'bool', sortable: false },
    weight: { sql: 'c.weight', type: 'float' },
  },
  outputFields: ['id', 'site', 'surv_year', 'collection_date', 'comments', 'location'],
  populate: ['site', 'trap'],
  extraParams: ['type'],
};

function expectError(fn: () => unknown, status: number, path?: string) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    const e = err as HttpError;
    expect(e.status).toBe(status);
    if (path) expect(e.fields?.[0]?.path).toBe(path);
    return e;
  }
  throw new Error('expected an error');
}

describe('parseListQuery: a query string it cannot read', () => {
  it('answers 400 for a malformed escape, a malformed key or conflicting shapes', () => {
    expectError(() => parseListQuery('?search=%E0%A4%A', SPEC), 400);
    expectError(() => parseListQuery('?query[site=4', SPEC), 400);
    expectError(() => parseListQuery('?query[site]=4&query[site][$gt]=2', SPEC), 400);
  });

  it('answers 400 past the limits: nesting, parameters, items of a list, length', () => {
    expectError(() => parseListQuery('?query[site][$in][0][a][b][c]=4', SPEC), 400);
    const params = Array.from({ length: 1001 }, (_, i) => `x${i}=1`).join('&');
    expectError(() => parseListQuery(`?${params}`, SPEC), 400);
    expectError(() => parseListQuery('?query[site][$in][1001]=4', SPEC), 400);
    expectError(() => parseListQuery(`?search=${'a'.repeat(40_000)}`, SPEC), 400);
  });

  it('reads a list of as many items as the limit allows', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `query[site][$in][${i}]=${i + 1}`);
    const q = parseListQuery(`?${ids.join('&')}`, SPEC);
    expect(q.params).toEqual([Array.from({ length: 1000 }, (_, i) => i + 1)]);
  });
});

describe('parseListQuery', () => {
  it('defaults to page 1 of 100 sorted by id with no conditions', () => {
    const q = parseListQuery('/v1/x', SPEC);
    expect(q).toMatchObject({
      whereSql: 'true',
      params: [],
      orderBy: 'c.id asc',
      limit: 100,
      offset: 0,
      page: 1,
      pageSize: 100,
      fields: null,
      populate: [],
    });
  });

  it('binds $between, $gte and $in with placeholders from firstParam', () => {
    const q = parseListQuery(
      '?query[surv_year][$between][0]=2025&query[surv_year][$between][1]=2026&query[collection_date][$gte]=2026-07-01&query[site][$in][0]=4&query[site][$in][1]=9',
      SPEC,
      { firstParam: 3 },
    );
    expect(q.whereSql).toBe(
      'c.surv_year between $3::bigint and $4::bigint and c.collection_date >= $5::timestamptz and c.site = any($6::bigint[])',
    );
    expect(q.params).toEqual([2025, 2026, '2026-07-01T00:00:00.000Z', [4, 9]]);
  });

  it('reads query[f]=v as $eq and an operator-less array as $in (the R client form)', () => {
    const q = parseListQuery(
      '?query[site]=4&query[surv_year][0]=2025&query[surv_year][1]=2026',
      SPEC,
    );
    expect(q.whereSql).toBe('c.site = $1::bigint and c.surv_year = any($2::bigint[])');
    expect(q.params).toEqual([4, [2025, 2026]]);
  });

  it('maps every comparison operator', () => {
    const q = parseListQuery(
      '?query[weight][$gt]=1.5&query[weight][$lte]=9&query[surv_year][$ne]=2020&query[surv_year][$lt]=2030&query[trap_problem_bit][$eq]=true',
      SPEC,
    );
    expect(q.whereSql).toBe(
      'c.weight > $1::double precision and c.weight <= $2::double precision and c.surv_year is distinct from $3::bigint and c.surv_year < $4::bigint and c.trap_problem_bit = $5::boolean',
    );
    expect(q.params).toEqual([1.5, 9, 2020, 2030, true]);
  });

  it('searches the named text fields case-insensitively with LIKE wildcards escaped', () => {
    const q = parseListQuery(
      '?search=50%25_off&searchFields[]=comments&searchFields[]=identified_by',
      SPEC,
    );
    expect(q.whereSql).toBe('(c.comments ilike $1::text or c.identified_by ilike $1::text)');
    expect(q.params).toEqual(['%50\\%\\_off%']);
  });

  it('searches every text field when searchFields[] is absent', () => {
    const q = parseListQuery('?search=pond', SPEC);
    expect(q.whereSql).toBe('(c.comments ilike $1::text or c.identified_by ilike $1::text)');
  });

  it('sorts by one or more fields, descending with a minus, always ending with the id', () => {
    expect(parseListQuery('?sort=-collection_date', SPEC).orderBy).toBe(
      'c.collection_date desc, c.id asc',
    );
    expect(parseListQuery('?sort=surv_year,-site', SPEC).orderBy).toBe(
      'c.surv_year asc, c.site desc, c.id asc',
    );
    expect(parseListQuery('?sort=-id', SPEC).orderBy).toBe('c.id desc');
    expect(parseListQuery('?sort[surv_year]=-1', SPEC).orderBy).toBe('c.surv_year desc, c.id asc');
  });

  it('pages with page and pageSize or page_size', () => {
    expect(parseListQuery('?page=3&pageSize=20', SPEC)).toMatchObject({
      limit: 20,
      offset: 40,
      page: 3,
      pageSize: 20,
    });
    expect(parseListQuery('?page_size=1000', SPEC)).toMatchObject({ limit: 1000 });
  });

  it('reads fields[], populate[] (deduplicated, also comma-separated) and extra parameters', () => {
    const q = parseListQuery(
      '?fields[]=site&fields[]=location&populate[]=site&populate=trap,site&type=tick&unknown=1',
      SPEC,
    );
    expect(q.fields).toEqual(['site', 'location']);
    expect(q.populate).toEqual(['site', 'trap']);
    expect(q.extra).toEqual({ type: 'tick' });
  });

  it.each([
    ['?query[nope]=1', 'query.nope'],
    ['?query[site][$regex]=1', 'query.site.$regex'],
    ['?query[site]=abc', 'query.site'],
    ['?query[collection_date][$gte]=yesterday', 'query.collection_date.$gte'],
    ['?query[surv_year][$between][0]=2025', 'query.surv_year.$between'],
    ['?pageSize=1001', 'pageSize'],
    ['?page_size=0', 'page_size'],
    ['?page=-1', 'page'],
    ['?searchFields[]=site&search=4', 'searchFields'],
    ['?populate[]=pools', 'populate'],
    ['?populate[x]=site', 'populate'],
    ['?fields[]=password_hash', 'fields'],
    ['?sort=-trap_problem_bit', 'sort'],
    ['?sort=nope', 'sort'],
  ])('answers 422 validation_failed for %s', (url, path) => {
    const e = expectError(() => parseListQuery(url, SPEC), 422, path);
    expect(e.code).toBe('validation_failed');
  });

  it('never puts a value into the SQL text', () => {
    const evil = "1'; drop table site; --";
    const q = parseListQuery(
      `?query[comments]=${encodeURIComponent(evil)}&search=${encodeURIComponent(evil)}`,
      SPEC,
    );
    expect(q.whereSql).not.toContain('drop');
    expect(q.params).toContain(evil);
  });
});

describe('applyFields', () => {
  it('keeps only the fields asked for, with id always first', () => {
    const rows = [{ comments: 'x', id: 7, site: 3, surv_year: 2026 }];
    expect(Object.keys(applyFields(rows, ['surv_year', 'comments'])[0])).toEqual([
      'id',
      'surv_year',
      'comments',
    ]);
    expect(Object.keys(applyFields(rows, null)[0])).toEqual([
      'id',
      'comments',
      'site',
      'surv_year',
    ]);
  });
});
