import './record-number.css';

/**
 * A record's number from the office ("Pool 82", "Collection 117"), or, before the record has
 * synced, the noun and a "not yet numbered" mark: a technician must not write a guess on a vial.
 * The mark is words, not a colour alone.
 */
export function RecordNumber({
  noun,
  number,
}: {
  noun: 'Pool' | 'Collection';
  number: number | null;
}) {
  if (number !== null) {
    return (
      <span className="record-number" data-record-number={number}>
        {noun} {number}
      </span>
    );
  }
  return (
    <span className="record-number" data-record-number="">
      {noun}{' '}
      <span
        className="record-number-pending"
        title={`The office gives the ${noun.toLowerCase()} its number when it syncs`}
      >
        not yet numbered
      </span>
    </span>
  );
}

/**
 * A pool as a technician names it: "Pool 82 · Cx tarsalis F-Mixed × 25". Two equal pools differ
 * by their number once synced; until then by their place in the list.
 */
export function PoolTitle({
  number,
  what,
  count,
}: {
  number: number | null;
  /** Species and sex, e.g. "Cx tarsalis F-Mixed". */
  what: string;
  count: unknown;
}) {
  return (
    <>
      <RecordNumber noun="Pool" number={number} /> · {what} × {String(count)}
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
