import { describe, expect, it } from 'vitest';
import { DrainGraph } from '../../../src/client/sync/drain-graph';
import { heldIds } from '../../../src/client/sync/outbox-graph';
import type { OutboxEntry } from '../../../src/shared';
import { outboxEntry } from './helpers/outbox-entry';

/** Entries made at time 0 unless given a createdAt: the graph orders them by it. */
const makeEntry = (fields: Parameters<typeof outboxEntry>[0]) =>
  outboxEntry({ createdAt: 0, ...fields });

const none = () => false;
const takeAll = (graph: DrainGraph, now = 0) => {
  const out: string[] = [];
  for (let e = graph.takeReady(now, none); e; e = graph.takeReady(now, none)) out.push(e.id);
  return out;
};

function chain(): { site: OutboxEntry; collection: OutboxEntry; pool: OutboxEntry } {
  const site = makeEntry({ entity: 'site', localId: 's', createdAt: 1 });
  const collection = makeEntry({
    entity: 'collection',
    localId: 'c',
    createdAt: 2,
    refs: [{ field: 'site', entity: 'site', localId: 's' }],
    dependsOn: [site.id],
  });
  const pool = makeEntry({
    entity: 'pool',
    localId: 'p',
    createdAt: 3,
    refs: [{ field: 'collection', entity: 'collection', localId: 'c' }],
  });
  return { site, collection, pool };
}

describe('drain graph', () => {
  it('names the oldest entry an acknowledgement releases, and only one waiting on nothing else', () => {
    const site = makeEntry({ entity: 'site', localId: 's', createdAt: 1 });
    const otherSite = makeEntry({ entity: 'site', localId: 's2', createdAt: 2 });
    const ref = (localId: string) => [{ field: 'site', entity: 'site' as const, localId }];
    // Two look-alike collections of the same site, saved in the same millisecond.
    const later = makeEntry({ entity: 'collection', localId: 'c2', createdAt: 5, refs: ref('s') });
    const first = makeEntry({ entity: 'collection', localId: 'c1', createdAt: 5, refs: ref('s') });
    const [older, newer] = first.id < later.id ? [first, later] : [later, first];
    // Waits on both sites: removing one of them does not release it.
    const both = makeEntry({
      entity: 'collection',
      localId: 'c3',
      createdAt: 3,
      refs: ref('s'),
      dependsOn: [otherSite.id],
    });
    const backingOff = makeEntry({
      entity: 'collection',
      localId: 'c4',
      createdAt: 4,
      refs: ref('s'),
      nextAttemptAt: 60_000,
    });
    const graph = new DrainGraph([newer, both, older, backingOff, otherSite, site]);

    expect(graph.firstReleasedBy(site.id, 0, none)?.id).toBe(older.id);
    expect(graph.firstReleasedBy(site.id, 0, (e) => e.id === older.id)?.id).toBe(newer.id);
    expect(graph.firstReleasedBy(site.id, 60_000, none)?.id).toBe(backingOff.id);
    expect(graph.firstReleasedBy(otherSite.id, 0, none)).toBeNull();
    // Nothing changed: the site still holds all four back.
    expect(takeAll(graph)).toEqual([site.id, otherSite.id]);
  });

  it('releases nothing held behind a parked entry', () => {
    const { site, collection } = chain();
    const parked = makeEntry({ entity: 'site', localId: 's', createdAt: 0, state: 'parked' });
    const graph = new DrainGraph([parked, site, collection]);
    expect(graph.firstReleasedBy(site.id, 0, none)).toBeNull();
  });

  it('offers a child only once its parent left the outbox, oldest first', () => {
    const { site, collection, pool } = chain();
    const other = makeEntry({ entity: 'site', localId: 's2', createdAt: 4 });
    const graph = new DrainGraph([pool, other, collection, site]);
    expect(takeAll(graph)).toEqual([site.id, other.id]);
    graph.remove(site.id);
    expect(takeAll(graph)).toEqual([collection.id]);
    graph.remove(collection.id);
    expect(takeAll(graph)).toEqual([pool.id]);
  });

  it('holds a child that arrives before its parent, once the parent arrives', () => {
    const { site, collection } = chain();
    const graph = new DrainGraph([collection]);
    // Seen alone, the child's parent looks sent; then another tab's parent entry turns up.
    graph.add(site);
    expect(takeAll(graph)).toEqual([site.id]);
    graph.remove(site.id);
    expect(takeAll(graph)).toEqual([collection.id]);
  });

  it('keeps a later edit of a record behind an earlier one', () => {
    const first = makeEntry({ entity: 'site', localId: 's', op: 'update', createdAt: 5 });
    const second = makeEntry({ entity: 'site', localId: 's', op: 'update', createdAt: 6 });
    const graph = new DrainGraph([second]);
    graph.add(first);
    expect(takeAll(graph)).toEqual([first.id]);
    graph.remove(first.id);
    expect(takeAll(graph)).toEqual([second.id]);
  });

  it('counts what a parked entry holds as heldIds does, and frees it when the entry goes', () => {
    const { site, collection, pool } = chain();
    const graph = new DrainGraph([site, collection, pool]);
    expect(graph.remaining).toBe(3);
    graph.update(site.id, { state: 'parked' });
    const stored = [{ ...site, state: 'parked' as const }, collection, pool];
    expect(heldIds(stored)).toEqual(new Set([collection.id, pool.id]));
    expect(graph.remaining).toBe(0);
    expect(takeAll(graph)).toEqual([]);
    graph.remove(site.id);
    expect(graph.remaining).toBe(2);
    expect(takeAll(graph)).toEqual([collection.id]);
  });

  it('offers an entry backing off once its time came, and says when that is', () => {
    const { site } = chain();
    const graph = new DrainGraph([{ ...site, nextAttemptAt: 100 }]);
    expect(takeAll(graph, 50)).toEqual([]);
    expect(graph.nextDue(50, (e) => e.nextAttemptAt)).toBe(100);
    expect(takeAll(graph, 100)).toEqual([site.id]);
  });

  it('built in slices, is the graph the constructor builds, yielding between slices', async () => {
    // Look-alike chains on purpose: the same site, day and trap in every collection.
    const entries: OutboxEntry[] = [];
    for (let i = 0; i < 7; i += 1) {
      const { site, collection, pool } = chain();
      const rename = (e: OutboxEntry, at: number) => ({
        ...e,
        localId: `${e.localId}${i}`,
        createdAt: at,
      });
      const s = rename(site, i * 3 + 1);
      const c = {
        ...rename(collection, i * 3 + 2),
        refs: [{ ...collection.refs[0], localId: s.localId }],
        dependsOn: [s.id],
      };
      const p = { ...rename(pool, i * 3 + 3), refs: [{ ...pool.refs[0], localId: c.localId }] };
      entries.push(p, c, s);
    }
    let yields = 0;
    const built = await DrainGraph.build(
      entries,
      async () => {
        yields += 1;
      },
      4,
    );
    const made = new DrainGraph(entries);
    expect(yields).toBe(Math.ceil(entries.length / 4) - 1);
    expect(built.tally()).toEqual(made.tally());
    const drain = (graph: DrainGraph) => {
      const order: string[] = [];
      for (let batch = takeAll(graph); batch.length > 0; batch = takeAll(graph)) {
        order.push(...batch);
        for (const id of batch) graph.remove(id);
      }
      return order;
    };
    const order = drain(built);
    expect(order).toEqual(drain(made));
    expect(order).toHaveLength(entries.length);
  });
});
