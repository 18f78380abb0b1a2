import type { OutboxEntry } from '../../shared';
import { ENTITY } from '#shared/entities';

const VERB: Record<OutboxEntry['op'], string> = {
  create: 'New',
  update: 'Changes to',
  delete: 'Deletion of',
};

/** A short human label of an entry: "New site 104233 Putah Creek N", "Changes to collection 2026-07-14". */
export function describeEntry(entry: OutboxEntry, data?: Record<string, unknown> | null): string {
  const d = data ?? entry.payload;
  const detail =
    entry.entity === 'site'
      ? [d.code, d.name].filter(Boolean).join(' ')
      : entry.entity === 'collection'
        ? String(d.collection_date ?? '').slice(0, 10)
        : entry.entity === 'pool'
          ? d.num_count != null
            ? `of ${String(d.num_count)}`
            : ''
          : String(d.test_date ?? '').slice(0, 10);
  const noun = ENTITY[entry.entity].noun;
  return `${VERB[entry.op]} ${noun.toLowerCase()}${detail ? ` ${detail}` : ''}`;
}
