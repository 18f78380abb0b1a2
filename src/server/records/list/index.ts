/**
 * The shared list module: every list endpoint (contract §4) parses its GET parameters here.
 *
 * API
 * - `parseListQuery(req.url, spec, { firstParam })` → `ListQuery`
 *   Parses the raw query string (or the tree the route read it into: the service's `req.query`,
 *   decoded with the shared codec and validated with this grammar by the route's schema,
 *   `listQuerystring`). Understands:
 *     query[f]=v ($eq) · query[f][0]=a&query[f][1]=b ($in) · query[f][$op]=v with
 *     $eq $ne $gt $gte $lt $lte · query[f][$in][0]=4 · query[f][$between][0]=a&…[1]=b ·
 *     search=text & searchFields[]=f (text fields only; no searchFields → every searchable
 *     text field) · sort=-f / sort=f,-g / sort[f]=-1 (default and tie-break: id asc) ·
 *     page (1-based) · pageSize or page_size (default 100, max 1000) · fields[]=f · populate[]=x
 *     (also `populate=a,b`, `fields=a,b`). Other top-level parameters are ignored unless named in
 *     `spec.extraParams`, whose values come back in `extra`.
 *   Every value is bound: `whereSql` holds `$n::type` placeholders numbered from `firstParam`
 *   (default 1); their values are `params`. Errors: malformed query string → 400 bad_request;
 *   unknown field / operator / populate name / fields[] name, non-text searchField, bad value
 *   for the field's type, pageSize > 1000 → 422 validation_failed naming the parameter.
 * - `runList(db, { select, from, where, params }, q)` → `{ rows, count }`: your own `where`
 *   (agency scoping, not deleted) uses $1..$k and `params`; call parseListQuery with
 *   `firstParam: k + 1`. `count` is the total before paging.
 * - `applyFields(records, q.fields)`: keeps the fields asked for, `id` always kept and first.
 *   `withIdFirst(record)` reorders one record.
 *
 * Example (GET /v1/site):
 *
 *   const SITE_LIST: ListSpec = {
 *     fields: {
 *       id: { sql: 's.id', type: 'int' },
 *       code: { sql: 's.code', type: 'text' },
 *       name: { sql: 's.name', type: 'text' },
 *       active_date: { sql: 's.active_date', type: 'date' },
 *       elevation: { sql: 's.elevation', type: 'float' },
 *     },
 *     outputFields: ['id', 'code', 'name', 'shape', 'active_date', 'elevation'],
 *     populate: ['user', 'agency'],
 *   };
 *   const q = parseListQuery(req.url, SITE_LIST, { firstParam: 2 });
 *   const { rows, count } = await runList(ctx.db,
 *     { select: 's.*', from: 'site s', where: 's.agency = $1 and s.delete_date is null',
 *       params: [req.caller.agencyId] }, q);
 *   const records = await serialize(rows, q.populate);        // your serializer
 *   return { rows: applyFields(records, q.fields), count };
 *
 *   GET /v1/site?query[code][$in][0]=100001&query[active_date][$gte]=2026-01-01&sort=-name
 *     → whereSql `s.code = any($2::text[]) and s.active_date >= $3::timestamptz`,
 *       params ['100001'] as an array and '2026-01-01T00:00:00.000Z', orderBy `s.name desc, s.id asc`.
 */
export { parseListQuery } from './parse-list-query';
export { runList } from './run-list';
export { applyFields, withIdFirst } from './apply-fields';
export type { ListFieldType, ListSpec } from './list-spec';
