import type { ListSpec } from '../../../src/server/records/list';
import { HOSTILE_NAMES, hostileQueryValue, plausibleDate } from './hostile-values';
import type { SeededRandom } from './seeded-random';

const OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$between'];
const HOSTILE_OPERATORS = [
  '$where',
  '$regex',
  '$or',
  'eq',
  '$EQ',
  '',
  '__proto__',
  'constructor',
  '$in][',
];

const enc = (s: string) => encodeURIComponent(s);

/** A key as the R client sends it (raw brackets) or fully percent-encoded. */
function key(rng: SeededRandom, k: string): string {
  return rng.chance(0.5) ? k.replace(/[^[\]$]/g, (c) => enc(c)) : enc(k);
}

function fieldName(rng: SeededRandom, names: readonly string[], hostileRate: number): string {
  return rng.chance(hostileRate) ? rng.pick(HOSTILE_NAMES) : rng.pick(names);
}

/** A typed value for a filter on a field: mostly sensible, sometimes anything. */
function filterValue(rng: SeededRandom, type: string | undefined, hostile: boolean): string {
  if (hostile && rng.chance(0.5)) return hostileQueryValue(rng);
  switch (type) {
    case 'int':
      return String(rng.int(1, 50));
    case 'date':
      return enc(plausibleDate(rng));
    case 'bool':
      return rng.pick(['true', 'false']);
    case 'float':
      return String(rng.int(0, 100) / 4);
    default:
      return enc(rng.pick(['fuzz', 'Sacramento', 'a', '%']));
  }
}

/**
 * The query string of a list (contract §4): paging, sort, fields[], populate[], search and
 * query[…] filters, built from the list's own spec so that valid requests reach the SQL, and
 * damaged on purpose (unknown and prototype names, odd operators, nesting, bad encodings).
 */
export function listQuery(rng: SeededRandom, spec: ListSpec | null, hostile: boolean): string {
  const fields = spec ? Object.keys(spec.fields) : ['id', 'name'];
  const output = spec?.outputFields ?? fields;
  const populate = spec?.populate ?? ['region', 'shape'];
  const h = hostile ? 0.35 : 0;
  const params: string[] = [];
  const add = (k: string, v: string) => params.push(`${key(rng, k)}=${v}`);
  const n = rng.int(0, hostile ? 6 : 4);
  for (let i = 0; i < n; i++) {
    rng.weighted<() => void>([
      [
        3,
        () =>
          add(
            rng.pick(['page', 'pageSize', 'page_size']),
            rng.chance(h) ? hostileQueryValue(rng) : String(rng.int(1, 5)),
          ),
      ],
      [3, () => add('sort', `${rng.chance(0.5) ? '-' : ''}${enc(fieldName(rng, fields, h))}`)],
      [3, () => add('fields[]', enc(fieldName(rng, output, h)))],
      [3, () => add('populate[]', enc(fieldName(rng, populate, h)))],
      [
        2,
        () => {
          add('search', filterValue(rng, 'text', hostile));
          if (rng.chance(0.7)) add('searchFields[]', enc(fieldName(rng, fields, h + 0.1)));
        },
      ],
      [
        6,
        () => {
          const f = fieldName(rng, fields, h);
          const type = spec?.fields[f]?.type;
          const op = rng.chance(h) ? rng.pick(HOSTILE_OPERATORS) : rng.pick(OPERATORS);
          if (rng.chance(0.3)) add(`query[${f}]`, filterValue(rng, type, hostile));
          else if (op === '$in' || op === '$between' || rng.chance(0.1)) {
            const prefix = op === '$in' || op === '$between' ? `query[${f}][${op}]` : `query[${f}]`;
            for (let j = 0; j < rng.int(op === '$between' ? 2 : 1, 3); j++)
              add(
                `${prefix}[${rng.chance(h) ? rng.pick(['x', '-1', '99999', '']) : j}]`,
                filterValue(rng, type, hostile),
              );
          } else add(`query[${f}][${op}]`, filterValue(rng, type, hostile));
        },
      ],
      [
        hostile ? 2 : 0,
        () =>
          add(
            rng.pick([
              'query',
              'query[]',
              'query[',
              'query]]',
              'query[a][b][c][d][e][f][g]',
              'fields',
              'populate',
              'sort[]',
              'fields[0]',
              'populate[x]',
              'search[]',
              '__proto__[x]',
              'constructor[prototype][x]',
              `query[${'['.repeat(50)}`,
            ]),
            hostileQueryValue(rng),
          ),
      ],
      [hostile ? 1 : 0, () => add(rng.pick(['page', 'sort', 'fields[]']), '')],
      [
        1,
        () =>
          add(
            'type',
            rng.chance(h) ? hostileQueryValue(rng) : rng.pick(['mosquito', 'tick', 'nontick']),
          ),
      ],
    ])();
  }
  if (hostile && rng.chance(0.05)) params.push(rng.pick(['&&&', '=', '==1', '&=&', '%', 'a=%ZZ']));
  return params.length > 0 ? `?${params.join('&')}` : '';
}
