import { LOOKUP_NAMES, type LookupName } from '#shared/schemas/lookups';
import { parseJson } from '../parse-json';

type Entry = Record<string, unknown>;

/** Lookup entries by list and id, from the /api/lookups document the BFF already keeps. */
export type LookupNames = Record<LookupName, Map<number, Entry>>;

export function lookupNames(documentText: string): LookupNames {
  const doc = (parseJson(documentText) ?? {}) as Partial<Record<LookupName, unknown>>;
  const out = {} as LookupNames;
  for (const name of LOOKUP_NAMES) {
    const list = Array.isArray(doc[name]) ? (doc[name] as Entry[]) : [];
    out[name] = new Map(list.map((e) => [e.id as number, e]));
  }
  return out;
}

/** An id field as the upstream gives it: the id itself, or a populated record holding it. */
export function idOf(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (value && typeof value === 'object') {
    const id = (value as { id?: unknown }).id;
    return typeof id === 'number' ? id : null;
  }
  return null;
}

/**
 * A readable name for an id field: the populated record's `key` when the upstream expanded it
 * (it does so for retired lookup entries too), else the lookup list's entry, else empty.
 */
export function nameOf(value: unknown, list: Map<number, Entry>, key: string): string | null {
  if (value && typeof value === 'object' && key in value) {
    const v = (value as Entry)[key];
    return typeof v === 'string' ? v : null;
  }
  const id = idOf(value);
  const v = id === null ? undefined : list.get(id)?.[key];
  return typeof v === 'string' ? v : null;
}
