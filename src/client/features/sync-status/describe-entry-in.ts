import type { IntlShape } from 'react-intl';
import type { OutboxEntry } from '#shared';
import { dayOf } from '../../lib/dates';

/**
 * sync's `describeEntry` in the active language: "New site 104233 Putah Creek N", "Changes to
 * collection 2026-07-14", "New pool of 10". The entry's operation and entity are codes in the
 * outbox; only here are they words.
 */
export function describeEntryIn(
  intl: IntlShape,
  entry: OutboxEntry,
  data?: Record<string, unknown> | null,
): string {
  const d = data ?? entry.payload;
  const detail =
    entry.entity === 'site'
      ? [d.code, d.name].filter(Boolean).join(' ')
      : entry.entity === 'collection'
        ? // The technician's day, as written on the sheet (2026-07-14): a date pulled from the
          // server is in UTC (an evening's is the next day).
          dayOf(
            typeof d.collection_date === 'string' ? d.collection_date : null,
            d.collection_date_date_only === true,
          )
        : entry.entity === 'pool'
          ? d.num_count != null
            ? intl.formatMessage(
                { id: 'entry.poolOf', defaultMessage: 'of {count}' },
                { count: String(d.num_count) },
              )
            : ''
          : String(d.test_date ?? '').slice(0, 10);
  return intl.formatMessage(
    {
      id: 'entry.label',
      defaultMessage:
        '{op, select, create {New} update {Changes to} other {Deletion of}} {entity, select, site {site} collection {collection} pool {pool} other {pool test}}{detail}',
    },
    { op: entry.op, entity: entry.entity, detail: detail ? ` ${detail}` : '' },
  );
}
