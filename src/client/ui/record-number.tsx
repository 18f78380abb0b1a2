import { useI18n } from '../lib/i18n';
import './record-number.css';

/**
 * A record's number from the office ("Pool 82", "Collection 117"), or, before the record has
 * synced, the noun and a "not yet numbered" mark: a technician must not write a guess on a vial.
 * The mark is words, not a colour alone.
 */
export function RecordNumber({
  noun,
  number,
  place,
}: {
  noun: 'Pool' | 'Collection';
  number: number | null;
  /**
   * Where a record without a number stands among its look-alikes on the screen ("New pool 2"),
   * so two equal pools look different before they sync too; ignored once it has a number.
   */
  place?: number;
}) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const kind = noun === 'Pool' ? 'pool' : 'collection';
  if (number !== null) {
    return (
      <span className="record-number" data-record-number={number}>
        {t(
          {
            id: 'record.numbered',
            defaultMessage: '{kind, select, pool {Pool} other {Collection}} {number}',
          },
          { kind, number: String(number) },
        )}
      </span>
    );
  }
  return (
    <span className="record-number" data-record-number="">
      {place === undefined
        ? t(
            {
              id: 'record.noun',
              defaultMessage: '{kind, select, pool {Pool} other {Collection}}',
            },
            { kind },
          )
        : t(
            {
              id: 'record.newPlace',
              defaultMessage: '{kind, select, pool {New pool} other {New collection}} {place}',
            },
            { kind, place: String(place) },
          )}{' '}
      <span
        className="record-number-pending"
        title={t(
          {
            id: 'record.numberWhenSynced',
            defaultMessage:
              '{kind, select, pool {The office gives the pool its number when it syncs} other {The office gives the collection its number when it syncs}}',
          },
          { kind },
        )}
      >
        {t({ id: 'record.notYetNumbered', defaultMessage: 'not yet numbered' })}
      </span>
    </span>
  );
}

/**
 * A pool as a technician names it: "Pool 82 · Cx tarsalis F-Mixed × 25". Two equal pools differ
 * by their number once synced; until then by their place in the list, when given ("New pool 2
 * [not yet numbered] · …").
 */
export function PoolTitle({
  number,
  place,
  what,
  count,
}: {
  number: number | null;
  /** The pool's place in its collection's list (see RecordNumber). */
  place?: number;
  /** Species and sex, e.g. "Cx tarsalis F-Mixed". */
  what: string;
  count: unknown;
}) {
  const intl = useI18n();
  return (
    <>
      <RecordNumber noun="Pool" number={number} place={place} /> ·{' '}
      {intl.formatMessage(
        { id: 'record.poolContents', defaultMessage: '{what} × {count}' },
        { what, count: String(count) },
      )}
    </>
  );
}

/** A collection as a technician names it: "Collection 117 · Jul 14, 2026". */
export function CollectionTitle({ number, date }: { number: number | null; date: string }) {
  return (
    <>
      <RecordNumber noun="Collection" number={number} /> · {date}
    </>
  );
}

/**
 * A pool as the vial and the lab sheet name it, with the collection it came from: "Pool 82 · Cx
 * tarsalis F-Mixed × 25", from "Collection 117 · Jul 14, 2026" (each "not yet numbered" until
 * synced). `collection` null: the pool alone.
 */
export function PoolHeading({
  pool,
  collection,
}: {
  pool: { number: number | null; what: string; count: unknown };
  collection: { number: number | null; date: string } | null;
}) {
  const intl = useI18n();
  return (
    <p className="record-title">
      <strong>
        <PoolTitle number={pool.number} what={pool.what} count={pool.count} />
      </strong>
      {collection ? (
        <>
          {' '}
          <br />
          {intl.formatMessage(
            { id: 'record.fromCollection', defaultMessage: 'from {collection}' },
            {
              collection: (
                <CollectionTitle
                  key="collection"
                  number={collection.number}
                  date={collection.date}
                />
              ),
            },
          )}
        </>
      ) : null}
    </p>
  );
}
