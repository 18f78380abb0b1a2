import type { OutboxEntry } from '#shared';
import { ENTITY } from '#shared/entities';
import { dayOf } from '../lib/dates';

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
        ? // The technician's day: a date pulled from the server is in UTC (an evening's is the next day).
          dayOf(
            typeof d.collection_date === 'string' ? d.collection_date : null,
            d.collection_date_date_only === true,
          )
        : entry.entity === 'pool'
          ? d.num_count != null
            ? `of ${String(d.num_count)}`
            : ''
          : String(d.test_date ?? '').slice(0, 10);
  const noun = ENTITY[entry.entity].noun;
  return `${VERB[entry.op]} ${noun.toLowerCase()}${detail ? ` ${detail}` : ''}`;
}
