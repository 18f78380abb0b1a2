// The document's descriptions and patterns hold `<`, `&` and quotes.
import { escapeHtml as esc } from '#shared/escape-html';

type Json = Record<string, unknown>;

const REF = '#/components/schemas/';

/** The JSON schema of a request body's or an answer's `content`, if it has one. */
function jsonSchemaOf(carrier: Json | undefined): Json | undefined {
  const json = (carrier?.content as Json | undefined)?.['application/json'] as Json | undefined;
  return json?.schema as Json | undefined;
}

/** A schema's name when it is a $ref, else its type in a few words (array of X, a | b, …). */
function typeOf(schema: Json | undefined): string {
  if (!schema) return '';
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace(REF, '');
    return `<a href="#schema-${esc(name)}">${esc(name)}</a>`;
  }
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map(typeOf).join(' | ');
  if (Array.isArray(schema.oneOf)) return (schema.oneOf as Json[]).map(typeOf).join(' | ');
  if (schema.type === 'array') return `array of ${typeOf(schema.items as Json)}`;
  if (Array.isArray(schema.enum))
    return (schema.enum as unknown[]).map((v) => esc(JSON.stringify(v))).join(' | ');
  if (schema.const !== undefined) return esc(JSON.stringify(schema.const));
  return esc(Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any'));
}

/** What else a schema says about its value: format, pattern, bounds, lengths. */
function rulesOf(schema: Json): string {
  const rules: string[] = [];
  for (const key of [
    'format',
    'pattern',
    'minimum',
    'maximum',
    'minLength',
    'maxLength',
    'maxItems',
  ]) {
    const value = schema[key];
    // zod's int() bounds every integer by the safe-integer range: no rule a reader needs.
    if (value === undefined || Math.abs(Number(value)) === Number.MAX_SAFE_INTEGER) continue;
    rules.push(`${key} ${String(value)}`);
  }
  if (typeof schema.description === 'string') rules.push(schema.description);
  return esc(rules.join('; '));
}

function schemaTable(name: string, schema: Json): string {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  const rows = Object.entries(properties)
    .map(
      ([field, s]) =>
        `<tr><td><code>${esc(field)}</code>${required.has(field) ? ' <em>required</em>' : ''}</td><td>${typeOf(s)}</td><td>${rulesOf(s)}</td></tr>`,
    )
    .join('');
  return `<section id="schema-${esc(name)}"><h3>${esc(name)}</h3>${
    rows
      ? `<table><thead><tr><th>Field</th><th>Type</th><th>Rules</th></tr></thead><tbody>${rows}</tbody></table>`
      : `<p>${typeOf(schema)} ${rulesOf(schema)}</p>`
  }</section>`;
}

function operation(path: string, method: string, op: Json): string {
  const params = ((op.parameters ?? []) as Json[])
    .map(
      (p) =>
        `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <em>required</em>' : ''}</td><td>${esc(p.in)}</td><td>${typeOf(p.schema as Json)}</td><td>${esc(p.description ?? '')}</td></tr>`,
    )
    .join('');
  const bodySchema = jsonSchemaOf(op.requestBody as Json | undefined);
  const responses = Object.entries((op.responses ?? {}) as Record<string, Json>)
    .map(([status, r]) => {
      const schema = jsonSchemaOf(r);
      return `<li><strong>${esc(status)}</strong> ${esc(r.description ?? '')}${schema ? ` — ${typeOf(schema)}` : ''}</li>`;
    })
    .join('');
  return `<section class="op"><h3><span class="method">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>${
    op.description ? `<p>${esc(op.description)}</p>` : ''
  }${op.security && (op.security as unknown[]).length === 0 ? '<p>No token needed.</p>' : ''}${
    params
      ? `<table><thead><tr><th>Parameter</th><th>In</th><th>Type</th><th>Meaning</th></tr></thead><tbody>${params}</tbody></table>`
      : ''
  }${bodySchema ? `<p>Body: ${typeOf(bodySchema)}</p>` : ''}<ul>${responses}</ul></section>`;
}

/**
 * The OpenAPI document as one readable HTML page (GET /docs): every path and method with its
 * parameters, body and answers, then every schema with its fields, types and rules. Rendered on
 * the server from the same document /openapi.json serves: no script, nothing from elsewhere.
 */
export function openApiPage(document: Json): string {
  const info = document.info as Json;
  const paths = Object.entries(document.paths as Record<string, Record<string, Json>>);
  const schemas = Object.entries(
    ((document.components as Json).schemas ?? {}) as Record<string, Json>,
  );
  const operations = paths
    .flatMap(([path, methods]) => Object.entries(methods).map(([m, op]) => operation(path, m, op)))
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(info.title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#111827}
h1{margin-bottom:0}h2{border-bottom:2px solid #14532d;margin-top:2rem}h3{margin:1.5rem 0 .25rem}
table{border-collapse:collapse;width:100%;margin:.25rem 0}th,td{border:1px solid #d1d5db;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f4f6}.method{background:#14532d;color:#fff;border-radius:4px;padding:0 .4rem;font-size:.85em}
code{font-size:.95em}em{color:#92400e;font-style:normal;font-size:.85em}
</style></head><body>
<h1>${esc(info.title)}</h1><p>${esc(info.description ?? '')} OpenAPI ${esc(document.openapi)}, version ${esc(info.version)}; the document itself: <a href="/openapi.json">/openapi.json</a>. Every route but those marked takes <code>Authorization: Bearer &lt;token&gt;</code>.</p>
<h2>Routes</h2>${operations}
<h2>Schemas</h2>${schemas.map(([name, s]) => schemaTable(name, s)).join('')}
</body></html>`;
}
