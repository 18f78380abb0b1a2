import type { AbundanceInput, LookupsDocument } from '#shared';
import { useI18n } from '../../lib/i18n';
import { nameIn } from './lookup-names';

/** A collection's abundance rows as a table with their total, or that the trap was empty. */
export function AbundanceCounts({
  rows,
  total,
  lookups,
}: {
  rows: readonly AbundanceInput[];
  total: number;
  lookups: LookupsDocument;
}) {
  const intl = useI18n();
  const t = intl.formatMessage;
  return (
    <>
      <h2>{t({ id: 'abundance.title', defaultMessage: 'Abundance' })}</h2>
      {rows.length === 0 ? (
        <p className="muted">
          {t({ id: 'collectionDetail.emptyTrap', defaultMessage: 'Nothing counted (empty trap).' })}
        </p>
      ) : (
        // A phone with large text scrolls the table, not the screen.
        <div
          className="table-scroll"
          role="region"
          aria-label={t({ id: 'collectionDetail.counts', defaultMessage: 'Abundance counts' })}
          tabIndex={0}
        >
          <table className="table">
            <thead>
              <tr>
                <th scope="col">
                  {t({ id: 'collectionDetail.species', defaultMessage: 'Species' })}
                </th>
                <th scope="col">{t({ id: 'collectionDetail.sex', defaultMessage: 'Sex' })}</th>
                <th scope="col">{t({ id: 'collectionDetail.count', defaultMessage: 'Count' })}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.species}:${r.sex}`}>
                  <td>{nameIn(lookups.species, r.species)}</td>
                  <td>{nameIn(lookups.sex, r.sex)}</td>
                  <td>{intl.formatNumber(r.num_count)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  {t({ id: 'collectionDetail.total', defaultMessage: 'Total' })}
                </th>
                <td>{intl.formatNumber(total)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </>
  );
}
