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
