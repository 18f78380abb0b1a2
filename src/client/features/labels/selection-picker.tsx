import { Link } from 'wouter';
import { useI18n } from '../../lib/i18n';
import type { LabelPool, PoolSelection } from './read-label-pools';

/**
 * What the screen is for, and how to change it: a day's pools (a date field), or one
 * collection's (with a way to the whole day). Not printed.
 */
export function SelectionPicker({
  path,
  selection,
  pools,
  onDate,
  other,
}: {
  /** This screen's path (`/labels`, `/manifest`). */
  path: string;
  selection: PoolSelection;
  pools: LabelPool[] | undefined;
  onDate: (date: string) => void;
  /** The link to the other screen for the same pools (labels ↔ manifest). */
  other: { href: string; text: string };
}) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const day = 'date' in selection ? selection.date : (pools?.[0]?.collection.day ?? '');
  return (
    <div className="no-print label-selection">
      {'collection' in selection ? (
        <>
          <p>
            {pools?.[0]
              ? t(
                  {
                    id: 'labels.forCollection',
                    defaultMessage:
                      'Pools of {number, select, none {the collection} other {collection {number}}} of {day}.',
                  },
                  {
                    number: pools[0].collection.number ?? 'none',
                    day: pools[0].collection.day,
                  },
                )
              : t({
                  id: 'labels.collectionHasNoPools',
                  defaultMessage: 'This collection has no pools on this tablet.',
                })}
          </p>
          {day ? (
            <Link href={`${path}?date=${day}`} className="button">
              {t({ id: 'labels.wholeDay', defaultMessage: 'All pools of that day' })}
            </Link>
          ) : null}
        </>
      ) : (
        <div className="field label-day">
          <label htmlFor="label-day">
            {t({ id: 'labels.collectionDay', defaultMessage: 'Pools collected on' })}
          </label>
          <input
            id="label-day"
            type="date"
            value={day}
            required
            onChange={(e) => {
              if (e.target.value) onDate(e.target.value);
            }}
          />
        </div>
      )}
      <Link href={other.href} className="button">
        {other.text}
      </Link>
    </div>
  );
}
