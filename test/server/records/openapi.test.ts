import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { ENTITIES, ENTITY } from '../../../src/shared/entities';
import { LOOKUP_LISTS } from '../../../src/shared/schemas/lookups';

type Operation = {
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
  requestBody?: { required: boolean; content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};
const sorted = (values: Iterable<string>) => [...values].sort();
const refOf = (o?: { content?: Record<string, { schema: { $ref?: string } }> }) =>
  o?.content?.['application/json'].schema.$ref;

let t: TestRecords;
beforeAll(async () => {
  t = await buildTestRecords();
});
afterAll(() => t.close());

it('serves an OpenAPI 3.1 document generated from the shared schemas, without a token', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  const doc = res.json();
  expect(doc.openapi).toBe('3.1.0');
  for (const path of [
    '/login',
    '/v1/site',
    '/v1/site/{id}',
    '/v1/arthropod/collection',
    '/v1/arthropod/pool/test/{id}',
    '/v1/species',
    '/v1/test/status',
  ]) {
    expect(doc.paths[path], path).toBeDefined();
  }
  const siteCreate = doc.components.schemas.SiteCreate;
  expect(siteCreate.required).toEqual(
    expect.arrayContaining(['code', 'name', 'coordinate_precision', 'shape']),
  );
  expect(siteCreate.additionalProperties).toBe(false);
  expect(siteCreate.properties.code.pattern).toBe('^\\d{6}$');
  // Every $ref resolves.
  const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z_]+/g) ?? [];
  for (const ref of new Set(refs))
    expect(doc.components.schemas[ref.split('/').at(-1)!], ref).toBeDefined();
});

it('serves the same document as a page to read at /docs: every route and every schema, no script', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const res = await t.app.inject({ method: 'GET', url: '/docs' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  const html = res.body;
  for (const [path, methods] of Object.entries(doc.paths as Record<string, object>)) {
    for (const method of Object.keys(methods))
      expect(html, `${method} ${path}`).toContain(
        `<span class="method">${method.toUpperCase()}</span> <code>${path}</code>`,
      );
  }
  for (const name of Object.keys(doc.components.schemas))
    expect(html, name).toContain(`<section id="schema-${name}"><h3>${name}</h3>`);
  // SiteCreate's code: required, its six-digit rule written out; a body names its schema.
  const siteCreate = html.slice(html.indexOf('id="schema-SiteCreate"'));
  expect(siteCreate).toMatch(
    /<code>code<\/code> <em>required<\/em><\/td><td>string<\/td><td>[^<]*pattern \^\\d\{6\}\$/,
  );
  expect(html).toContain('Body: <a href="#schema-SiteCreate">SiteCreate</a>');
  expect(html).not.toMatch(/<script/i);
});

it('describes exactly the entities as record resources, generated from the routes themselves', async () => {
  const doc: Doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  // A record resource is one whose items can be updated (lookups are read-only lists); the
  // agency's people (contract §10) are accounts, not records.
  const items = Object.keys(doc.paths).filter(
    (p) => 'put' in doc.paths[p] && p !== '/v1/user/{id}',
  );
  expect(sorted(items)).toEqual(sorted(ENTITIES.map((e) => `${ENTITY[e].path}/{id}`)));
  for (const entity of ENTITIES) {
    const { name } = ENTITY[entity].openapi;
    const list = doc.paths[ENTITY[entity].path];
    const item = doc.paths[`${ENTITY[entity].path}/{id}`];
    expect(Object.keys(list).sort()).toEqual(['get', 'post']);
    expect('delete' in item).toBe(ENTITY[entity].deletable);
    // Bodies and answers name the shared schemas the route reads and answers with.
    expect(refOf(list.post.requestBody)).toBe(`#/components/schemas/${name}Create`);
    expect(list.post.requestBody?.required).toBe(true);
    expect(refOf(list.post.responses['201'])).toBe(`#/components/schemas/${name}`);
    expect(refOf(list.get.responses['200'])).toBe(`#/components/schemas/${name}List`);
    expect(refOf(item.put.requestBody)).toBe(`#/components/schemas/${name}Update`);
    expect(refOf(item.put.responses['422'])).toBe('#/components/schemas/Error');
    expect(item.get.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    );
    expect(list.post.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
    );
    expect(sorted(list.get.parameters!.map((p) => p.name))).toEqual(
      sorted([
        'page',
        'pageSize',
        'sort',
        'search',
        'searchFields[]',
        'fields[]',
        'populate[]',
        'query',
      ]),
    );
  }
  // Every lookup list; only the agency list takes populate[].
  for (const [name, { path }] of Object.entries(LOOKUP_LISTS)) {
    const get = doc.paths[path]?.get;
    expect(refOf(get?.responses['200']), path).toBe(`#/components/schemas/Lookup_${name}List`);
    expect(
      get.parameters!.some((p) => p.name === 'populate[]'),
      path,
    ).toBe(name === 'agency');
  }
  // POST /login takes its credentials as a body or in the query string: the body is optional.
  const login = doc.paths['/login'].post;
  expect(login.requestBody?.required).toBe(false);
  expect(refOf(login.requestBody)).toBe('#/components/schemas/LoginRequest');
  expect(Object.keys(login.responses).sort()).toEqual(['200', '401', '422', '429']);
  // Over the sign-in limit the service answers the contract's error body, as every other error.
  expect(refOf(login.responses['429'])).toBe('#/components/schemas/Error');
  // The document's own routes are not in it.
  expect(doc.paths['/openapi.json']).toBeUndefined();
  expect(doc.paths['/docs']).toBeUndefined();
});

it("keeps the fields' descriptions and names each schema once, a body as sent", async () => {
  const doc: Doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const listSites = doc.paths['/v1/site'].get;
  expect(listSites.parameters?.find((p) => p.name === 'page')?.description).toBe('1-based page');
  expect(doc.components.schemas.SiteList.description).toMatch(/count is every match/);
  // One component per name: no second copy as sent (`SiteInput`) beside the one as answered.
  expect(Object.keys(doc.components.schemas).filter((n) => n.endsWith('Input'))).toEqual([]);
  // A body is written as a client may send it: extra keys in a location's crs are dropped, not
  // refused (as answered, the service never adds any).
  type Props = { properties: Record<string, Props>; additionalProperties?: unknown };
  const siteCreate = doc.components.schemas.SiteCreate as unknown as Props;
  expect(siteCreate.properties.shape.properties.crs).not.toHaveProperty('additionalProperties');
  // A named schema inside another route's body is a reference to it, not a copy.
  const batch = JSON.stringify(doc.paths['/v1/site/batch']);
  expect(batch).toContain('#/components/schemas/SiteCreate');
});
