import { ENTITY_BODIES, fieldsFromZod, summarizeFields, type Entity } from '#shared';
import { PARENT_FIELD } from './database';
import { RepositoryError } from './repository-error';

/**
 * Checks data against the shared schema it will be sent under, before anything is written. The
 * parent field is not in `data` (it is resolved at send time), so a placeholder id stands in.
 */
export function validateRecord(
  entity: Entity,
  op: 'create' | 'update',
  data: Record<string, unknown>,
): void {
  const parent = PARENT_FIELD[entity];
  const candidate = parent && op === 'create' ? { ...data, [parent.field]: 1 } : data;
  const result = ENTITY_BODIES[entity][op].safeParse(candidate);
  if (!result.success) {
    const fields = fieldsFromZod(result.error);
    throw new RepositoryError('invalid', summarizeFields(fields), fields);
  }
  if (parent && parent.field in data) {
    throw new RepositoryError(
      'invalid',
      `${parent.field} is carried by the parent record, not the data`,
    );
  }
}
