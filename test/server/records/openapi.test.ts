import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';

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
