import { describe, expect, it } from 'vitest';
import {
  CHILD_ENTITY,
  ENTITIES,
  ENTITY,
  entityAtPath,
  type Entity,
} from '../../src/shared/entities';
import { LOOKUP_LISTS } from '../../src/shared/schemas/lookups';
import { ENTITY_BODIES } from '../../src/shared/schemas/entity-schemas';
import { putBody } from '../../src/server/records/put-body';
import { TraplineDb } from '../../src/client/db/database';
import { PROXY_RECORD_ROUTES } from '../../src/server/bff/proxy-allow-list';

const sorted = (values: Iterable<string>) => [...values].sort();

describe('entity registry', () => {
  it('names an existing entity as every parent, and each child points back at its parent', () => {
    for (const entity of ENTITIES) {
      const parent = ENTITY[entity].parent;
      if (!parent) continue;
      expect(ENTITIES).toContain(parent.entity);
      expect(parent.field).not.toBe('');
      expect(CHILD_ENTITY[parent.entity]).toBe(entity);
    }
    for (const [parent, child] of Object.entries(CHILD_ENTITY) as [Entity, Entity][]) {
      expect(ENTITY[child].parent?.entity).toBe(parent);
    }
  });

  it('is one chain from site: every record reaches the root, no parent has two child kinds', () => {
    const roots = ENTITIES.filter((e) => ENTITY[e].parent === null);
    expect(roots).toEqual(['site']);
    for (const entity of ENTITIES) {
      const seen = new Set<Entity>();
      let at: Entity | undefined = entity;
      while (at && !seen.has(at)) {
        seen.add(at);
        at = ENTITY[at].parent?.entity;
      }
      expect(at, `${entity} reaches the root without a cycle`).toBeUndefined();
    }
    const parents = ENTITIES.flatMap((e) => (ENTITY[e].parent ? [ENTITY[e].parent.entity] : []));
    expect(new Set(parents).size).toBe(parents.length);
  });

  it('gives every entity its own path, table and OpenAPI name', () => {
    for (const facts of [
      ENTITIES.map((e) => ENTITY[e].path),
      ENTITIES.map((e) => ENTITY[e].table),
      ENTITIES.map((e) => ENTITY[e].openapi.name),
    ]) {
      expect(new Set(facts).size).toBe(ENTITIES.length);
    }
    for (const entity of ENTITIES) expect(entityAtPath(ENTITY[entity].path)).toBe(entity);
    expect(entityAtPath('/v1/species')).toBeUndefined();
  });

  it('has a natural key of create-body fields and at least one way to list every record', () => {
    for (const entity of ENTITIES) {
      expect(ENTITY[entity].naturalKey.length).toBeGreaterThan(0);
      expect(ENTITY[entity].listVariants.length).toBeGreaterThan(0);
      const parent = ENTITY[entity].parent;
      // Reconciliation narrows to the parent's records: the parent field is part of the key.
      if (parent) expect(ENTITY[entity].naturalKey).toContain(parent.field);
    }
  });

  it('the BFF forwards exactly the entities (and lookups), deletes only where the service takes them', () => {
    const lookupPaths = new Set<string>(Object.values(LOOKUP_LISTS).map((l) => l.path));
    const records = PROXY_RECORD_ROUTES.filter((r) => !lookupPaths.has(r.path));
    const bases = new Set(records.map((r) => r.path.replace(/\/:id$/, '')));
    expect(sorted(bases)).toEqual(sorted(ENTITIES.map((e) => ENTITY[e].path)));
    for (const entity of ENTITIES) {
      const methods = (path: string) =>
        sorted(records.filter((r) => r.path === path).map((r) => r.method));
      expect(methods(ENTITY[entity].path)).toEqual(['GET', 'POST']);
      expect(methods(`${ENTITY[entity].path}/:id`)).toEqual(
        sorted(['GET', 'PUT', ...(ENTITY[entity].deletable ? ['DELETE'] : [])]),
      );
    }
  });

  it('the tablet database has one record table per entity, besides the outbox, lookups, meta and photos', () => {
    const db = new TraplineDb('entities-test');
    // Photos belong to records but are no record of the interface (contract §13): their own queue.
    const tables = db.tables
      .map((t) => t.name)
      .filter((n) => !['outbox', 'lookups', 'meta', 'photos'].includes(n));
    expect(sorted(tables)).toEqual(sorted(ENTITIES.map((e) => ENTITY[e].table)));
  });
});

describe("an entity's response-only fields and references, declared once in the registry", () => {
  const echoed = (entity: Entity) =>
    Object.fromEntries(
      ENTITY[entity].responseOnly.map((f) => [f, { id: 7, anything: 'as GET had it' }]),
    );

  it.each(ENTITIES)('%s: the update schema takes every one back as GET answered it', (entity) => {
    const read = ENTITY_BODIES[entity].update.safeParse(echoed(entity));
    expect(read.success, JSON.stringify(read.error?.issues)).toBe(true);
  });

  it.each(ENTITIES)('%s: the create schema still refuses every one', (entity) => {
    for (const field of ENTITY[entity].responseOnly) {
      const read = ENTITY_BODIES[entity].create.safeParse({ [field]: 1 });
      expect(
        read.error?.issues.some(
          (i) =>
            i.path.includes(field) || (i.code === 'unrecognized_keys' && i.keys.includes(field)),
        ),
        field,
      ).toBe(true);
    }
  });

  it.each(ENTITIES)(
    "%s: the service's PUT reading drops them and reads references as ids",
    (entity) => {
      const reference = ENTITY[entity].references[0];
      const body = putBody(entity, {
        ...echoed(entity),
        [reference]: { id: 12, name: 'populated' },
      });
      expect(body).toEqual({ [reference]: 12 });
    },
  );
});
