import {
  HOSTILE_NAMES,
  RawJson,
  deepNesting,
  hostileValue,
  setOwn,
  toJsonText,
} from './hostile-values';
import type { SeededRandom } from './seeded-random';

/** A body as it goes on the wire: text, and the Content-Type it is sent with (none if null). */
export type WireBody = { text: string | undefined; contentType: string | null };

const JSON_TYPE = 'application/json';

/** Field-level damage to a record body: wrong values and types, missing and unknown fields. */
export function mutateFields(rng: SeededRandom, body: Record<string, unknown>): void {
  for (let n = rng.int(1, 3); n > 0; n--) {
    const keys = Object.keys(body);
    const key = keys.length > 0 ? rng.pick(keys) : 'id';
    rng.weighted<() => void>([
      [8, () => (body[key] = hostileValue(rng))],
      [3, () => delete body[key]],
      [3, () => setOwn(body, rng.pick(HOSTILE_NAMES), hostileValue(rng))],
      [2, () => setOwn(body, rng.pick(['__proto__', 'constructor']), { admin: true, agency: 2 })],
      [2, () => (body[`unknown_${rng.int(1, 9)}`] = 1)],
      [2, () => (body[key] = typeof body[key] === 'number' ? String(body[key]) : [body[key]])],
      [3, () => mutateNested(rng, body)],
      [1, () => (body.agency = rng.pick([2, 3, 0, '1']))],
      [1, () => (body.user = rng.pick([3, 1, -1]))],
    ])();
  }
}

/** Damage inside the nested parts: abundance rows, lures, location and shape. */
function mutateNested(rng: SeededRandom, body: Record<string, unknown>): void {
  const target = rng.pick(['arthropods', 'lures', 'location', 'shape', 'site_land_usage']);
  const v = body[target];
  if (Array.isArray(v) && v.length > 0) {
    const i = rng.int(0, v.length - 1);
    if (v[i] && typeof v[i] === 'object') {
      const row = v[i] as Record<string, unknown>;
      const k = rng.pick([...Object.keys(row), '__proto__', 'extra']);
      setOwn(row, k, hostileValue(rng));
    } else v[i] = hostileValue(rng);
    if (rng.chance(0.3)) v.push(v[i]); // a repeated row or lure
  } else if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const shape = (o.shape as Record<string, unknown> | undefined) ?? o;
    rng.weighted<() => void>([
      [
        3,
        () =>
          (shape.coordinates = rng.pick([
            [38.58, -121.49],
            [181, 0],
            [0, 91],
            [1],
            [1, 2, 3],
            ['a', 'b'],
            [new RawJson('1e400'), 0],
            [],
          ])),
      ],
      [1, () => (shape.type = rng.pick(['Polygon', 'point', '', null]))],
      [1, () => setOwn(o, rng.pick(HOSTILE_NAMES), 1)],
      [1, () => (o.coordinate_precision = hostileValue(rng))],
    ])();
  } else {
    body[target] = rng.pick([[], {}, [hostileValue(rng)], hostileValue(rng), deepNesting(rng)]);
  }
}

/**
 * The body as text, sometimes damaged as text (what no object can hold): duplicate keys, broken
 * or truncated JSON, a non-object, an empty or a huge body, a wrong or missing Content-Type.
 */
export function toWire(rng: SeededRandom, body: unknown, hostile: boolean): WireBody {
  let text = toJsonText(body);
  let contentType: string | null = JSON_TYPE;
  if (!hostile) {
    if (rng.chance(0.1)) contentType = 'application/json; charset=utf-8';
    return { text, contentType };
  }
  rng.weighted<() => void>([
    [40, () => {}],
    [6, () => (text = duplicateKey(rng, text))],
    [6, () => (text = brokenJson(rng, text))],
    [3, () => (text = rng.pick(['[]', 'null', '1', '"x"', 'true', '[{}]', '{}', '""']))],
    [2, () => (text = rng.pick(['', ' ', '\n']))],
    [1, () => (text = `{"comments":"${'x'.repeat(1024 * 1024 + rng.int(1, 1000))}"}`)],
    [1, () => (text = `{"comments":"${'é'.repeat(300_000)}"}`)],
    [5, () => (contentType = wrongContentType(rng))],
    [2, () => (contentType = null)],
    [2, () => (text = `\ufeff${text}`)],
  ])();
  return { text, contentType };
}

function duplicateKey(rng: SeededRandom, text: string): string {
  if (!text.startsWith('{') || text === '{}') return text;
  const m = /^\{"([^"]*)":/.exec(text);
  const key = m ? m[1] : 'id';
  const dup = `"${key}":${toJsonText(rng.chance(0.5) ? hostileValue(rng) : 1)},`;
  return rng.chance(0.5) ? `{${dup}${text.slice(1)}` : `${text.slice(0, -1)},${dup.slice(0, -1)}}`;
}

function brokenJson(rng: SeededRandom, text: string): string {
  return rng.weighted<() => string>([
    [3, () => text.slice(0, rng.int(0, Math.max(0, text.length - 1)))],
    [1, () => `${text},`],
    [1, () => text.replace(/"/g, "'")],
    [1, () => text.replace(/:(\d)/, ':NaN')],
    [1, () => `${text}${text}`],
    [1, () => text.replace('{', '{/* c */')],
    [1, () => text.replace(/,/, ',,')],
    [1, () => `{"a":"\\x41"}`],
    [1, () => `{"a":"\u0001"}`],
    [1, () => text.replace(/^\{/, '{"a":undefined,')],
  ])();
}

function wrongContentType(rng: SeededRandom): string {
  return rng.pick([
    'text/plain',
    'text/html',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=xyz',
    'application/json; charset=utf-16',
    'application/json; charset=latin1',
    'APPLICATION/JSON',
    'application/json-patch+json',
    'application/vnd.api+json',
    'application/jsonx',
    'application/json, text/plain',
    '*/*',
    '',
    ';',
    'application/json;',
    'application/json; charset="utf-8"; boundary=x',
  ]);
}
