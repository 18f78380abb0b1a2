import { z } from 'zod';

/** A registry whose entries may carry a component name (`id`), as zod's global one does. */
export type NameRegistry = z.core.$ZodRegistry<{ id?: string }>;

/**
 * The schemas an OpenAPI document names as components (a route's body or answer that is one of
 * them is written as a `$ref` to it), and which of those names are request bodies: those are
 * written as the input a client sends (defaults optional), every other as the service answers it.
 */
export type SchemaNames = { registry: NameRegistry; inputs: Set<string> };

/**
 * Names kept in `registry`. The service's document uses zod's global registry: it also holds
 * the descriptions `.meta()` gives fields, which a separate registry would leave out of the
 * document (the library reads metadata from the registry it is given only).
 */
export function schemaNames(registry: NameRegistry = z.globalRegistry): SchemaNames {
  return { registry, inputs: new Set() };
}

/** Names `schema` `id` in the document; `io: 'input'` for a request body. */
export function nameSchema(
  names: SchemaNames,
  schema: z.ZodType,
  id: string,
  io: 'input' | 'output' = 'output',
): void {
  // Kept with what the registry already says of it (a list's description).
  names.registry.add(schema, { ...names.registry.get(schema), id });
  if (io === 'input') names.inputs.add(id);
}
