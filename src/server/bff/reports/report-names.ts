import type { ReportLists } from './report-list-read';
import type { CachedLookups } from '../lookup-cache';
import type { FieldError } from '#shared/schemas/error';
import { said } from './report-query';

/** Names a report's `species` and `trap` filters may take. */
export type KnownNames = { species: ReadonlySet<string>; trap: ReadonlySet<string> };

/** The filters checked against known names, and what each is (for the message). */
const FILTERS = [
  { param: 'species', what: 'species', example: '"Cx tarsalis"' },
  { param: 'trap', what: 'trap', example: '"CO2"' },
] as const;

/** Unknown names quoted in a message at most; the rest are counted. */
const NAMES_SHOWN = 5;

const fromLookups = new WeakMap<CachedLookups, KnownNames>();

/**
 * Species display names and trap acronyms of the agency's lookups document (GET /api/lookups),
 * worked out once per document.
 */
export function lookupNames(doc: CachedLookups): KnownNames {
  let names = fromLookups.get(doc);
  if (!names) {
    const parsed = JSON.parse(doc.text) as {
      species?: Array<{ display_name?: string | null }>;
      trap?: Array<{ acronym?: string }>;
    };
    names = {
      species: new Set((parsed.species ?? []).flatMap((s) => s.display_name ?? [])),
      trap: new Set((parsed.trap ?? []).flatMap((t) => t.acronym ?? [])),
    };
    fromLookups.set(doc, names);
  }
  return names;
}

/**
 * The names in the agency's own records: a species or trap since retired from the lookups still
 * has its history, and a report on it is a fair question. Worked out once per read, by the
 * report worker, which holds the lists.
 */
export function listNames(lists: ReportLists): KnownNames {
  const species = new Set<string>();
  const trap = new Set<string>();
  for (const c of lists.collections) {
    if (c.trap?.acronym) trap.add(c.trap.acronym);
    for (const a of c.arthropods ?? []) {
      if (a.species?.display_name) species.add(a.species.display_name);
    }
  }
  for (const p of lists.pools) {
    if (p.trap?.acronym) trap.add(p.trap.acronym);
    if (p.species?.display_name) species.add(p.species.display_name);
  }
  return { species, trap };
}

/**
 * One 422 field per filter naming what none of `known` has: a made-up name would otherwise get
 * a row of zeros in every group (vectorsurvR lists every species asked for), which is how one
 * request was made to build 440,600 rows (issue 36 N1). Empty when every name is known.
 */
export function unknownNameFields(
  query: { species?: readonly string[]; trap?: readonly string[] },
  known: readonly KnownNames[],
): FieldError[] {
  const fields: FieldError[] = [];
  for (const { param, what, example } of FILTERS) {
    const unknown = (query[param] ?? []).filter((n) => !known.some((k) => k[param].has(n)));
    if (unknown.length === 0) continue;
    const names = unknown.slice(0, NAMES_SHOWN);
    const others = unknown.length - names.length;
    const shown = names.map((n) => JSON.stringify(n));
    const more = others > 0 ? ` and ${others} more` : '';
    fields.push({
      path: param,
      message:
        `No ${what} is called ${shown.join(', ')}${more}: use the names the lookups show ` +
        `(e.g. ${example})`,
      ...said('unknown_names', { names, more: others }),
    });
  }
  return fields;
}
