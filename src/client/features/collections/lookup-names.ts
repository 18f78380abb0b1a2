import { refId, type LookupsDocument } from '#shared';

/** A lookup item's name as a technician reads it, or `#<id>` when the lists do not hold it. */
export const nameIn = (
  list: readonly {
    id: number;
    name?: string;
    display_name?: string | null;
    full_name?: string;
    acronym?: string | null;
  }[],
  id: unknown,
) => {
  const item = list.find((x) => x.id === refId(id as number));
  return item
    ? (item.display_name ?? item.full_name ?? item.acronym ?? item.name ?? String(item.id))
    : `#${String(id)}`;
};

/** A lure type by its code and description, as the form lists it. */
export function lureName(lookups: LookupsDocument, id: number): string {
  const lure = lookups.lure.find((l) => l.id === id);
  if (!lure) return `#${id}`;
  return lure.description ? `${lure.code} (${lure.description})` : lure.code;
}
