import type { Queryable } from '../../db/database';
import type { FieldError } from '#shared/schemas/error';
import { unknownLookupIdsByKind, type ShapeKind } from '../populate';

/** Words a person sees for each lookup a record may reference. */
const NAMES = {
  species: 'species',
  sex: 'sex',
  trap: 'trap type',
  lure: 'lure type',
  coordinate_precision: 'coordinate precision',
  test_method: 'test method',
  test_target: 'test target',
  test_status: 'test status',
  agency: 'agency',
} as const satisfies Partial<Record<ShapeKind, string>>;
export type LookupKind = keyof typeof NAMES;

export type LookupRef = { path: string; table: LookupKind; id: number };

/** The ids each kind of `refs` names, for unknownLookupIdsByKind or a lookup catalog. */
export function idsByKindOf(refs: LookupRef[]): Map<LookupKind, number[]> {
  const idsByKind = new Map<LookupKind, number[]>();
  for (const r of refs) idsByKind.set(r.table, [...(idsByKind.get(r.table) ?? []), r.id]);
  return idsByKind;
}

/**
 * Field errors for every reference to an unknown or inactive lookup entry (contract §5), one per
 * failing field, so a request learns all its problems at once. Agencies have no `active` flag:
 * any existing agency may be named (an outside laboratory has one too).
 */
export async function lookupErrors(q: Queryable, refs: LookupRef[]): Promise<FieldError[]> {
  return lookupErrorsAmong(refs, await unknownLookupIdsByKind(q, idsByKindOf(refs)));
}

/** lookupErrors, from the unknown ids of each kind already read (unknownAmong). */
export function lookupErrorsAmong(
  refs: LookupRef[],
  unknownByKind: ReadonlyMap<string, readonly number[]>,
): FieldError[] {
  const unknown = new Set<string>();
  for (const [kind, ids] of unknownByKind) for (const id of ids) unknown.add(`${kind}:${id}`);
  return refs
    .filter((r) => unknown.has(`${r.table}:${r.id}`))
    .map((r) => ({
      path: r.path,
      message: `No ${r.table === 'agency' ? '' : 'active '}${NAMES[r.table]} with ID ${r.id}; pick one from the ${NAMES[r.table]} list`,
    }));
}
