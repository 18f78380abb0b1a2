import { useLocation, useSearchParams } from 'wouter';
import { localDate } from '../../lib/dates';
import { loadIdentity } from '../../lib/identity';
import { useI18n } from '../../lib/i18n';
import { Banner } from '../../ui/banner';
import { RecordNumber } from '../../ui/record-number';
import { intoPages, LABEL_STOCKS, stockById, type LabelStock } from './label-stock';
import { PoolLabel } from './pool-label';
import { isNumbered, selectionFrom } from './read-label-pools';
import { SelectionPicker } from './selection-picker';
import { useLabelPools } from './use-label-pools';
import './labels.css';

/** The `@page` rule of the chosen stock (one stock a print: the rule is the document's). */
function pageRule(stock: LabelStock): string {
  return `@page { size: ${stock.page.size}; margin: ${stock.page.margin}; }`;
}

/**
 * Pool labels of a collection (`/labels?collection=<localId>`) or of a day (`?date=YYYY-MM-DD`),
 * laid out for the chosen stock and printed with the browser's Print. A pool not yet numbered is
 * listed apart, never printed: its label appears on the sheet, on its own, once a sync numbers it.
 */
export function LabelsScreen() {
  const intl = useI18n();
  const t = intl.formatMessage;
  const [params, setParams] = useSearchParams();
  const [, navigate] = useLocation();
  const selection = selectionFrom(params, localDate());
  const stock = stockById(params.get('stock'));
  const pools = useLabelPools(selection);
  const agency = loadIdentity()?.agency.id ?? null;
  const numbered = (pools ?? []).filter(isNumbered);
  const waiting = (pools ?? []).filter((p) => !isNumbered(p));
  const query =
    'collection' in selection ? `collection=${selection.collection}` : `date=${selection.date}`;

  return (
    <section className="screen labels-screen">
      <style>{pageRule(stock)}</style>
      <div className="no-print">
        <h1>{t({ id: 'labels.title', defaultMessage: 'Pool labels' })}</h1>
        <SelectionPicker
          path="/labels"
          selection={selection}
          pools={pools}
          onDate={(date) => navigate(`/labels?date=${date}&stock=${stock.id}`, { replace: true })}
          other={{
            href: `/manifest?${query}`,
            text: t({ id: 'labels.toManifest', defaultMessage: 'Lab manifest for these pools' }),
          }}
        />
        <fieldset className="checks label-stocks">
          <legend>{t({ id: 'labels.stock', defaultMessage: 'Label stock' })}</legend>
          {LABEL_STOCKS.map((s) => (
            <label key={s.id} className="check">
              <input
                type="radio"
                name="label-stock"
                checked={s.id === stock.id}
                onChange={() => {
                  const next = new URLSearchParams(params);
                  next.set('stock', s.id);
                  setParams(next, { replace: true });
                }}
              />
              <span>
                {t(
                  {
                    id: 'labels.stockName',
                    defaultMessage:
                      '{stock, select, letter {Letter sheet, 30 labels (Avery 5160)} a4 {A4 sheet, 21 labels (Avery L7160)} other {Label printer, 2.25 × 1.25 in}}',
                  },
                  { stock: s.id },
                )}
              </span>
            </label>
          ))}
        </fieldset>
        {waiting.length > 0 ? (
          <Banner tone="warn">
            {t(
              {
                id: 'labels.waitingForNumbers',
                defaultMessage:
                  '{count, plural, one {# pool has} other {# pools have}} no number yet: the office gives each its number when the tablet syncs. {count, plural, one {Its label appears} other {Their labels appear}} here on {count, plural, one {its} other {their}} own once numbered; print then.',
              },
              { count: waiting.length },
            )}
          </Banner>
        ) : null}
        {pools !== undefined && pools.length === 0 ? (
          <p className="muted">
            {t({ id: 'labels.noPools', defaultMessage: 'No pools to label here yet.' })}
          </p>
        ) : null}
        <div className="row wrap">
          <button
            type="button"
            className="button button-primary button-big"
            disabled={numbered.length === 0 || agency === null}
            onClick={() => window.print()}
          >
            {t(
              {
                id: 'labels.print',
                defaultMessage: 'Print {count, plural, one {# label} other {# labels}}',
              },
              { count: numbered.length },
            )}
          </button>
        </div>
        {waiting.length > 0 ? (
          <ul
            className="list"
            aria-label={t({ id: 'labels.waitingList', defaultMessage: 'Waiting for a number' })}
          >
            {waiting.map((p) => (
              <li key={p.localId} className="card pool-label-waiting">
                <RecordNumber noun="Pool" number={null} place={p.place} /> · {p.species} {p.sex} ×{' '}
                {p.count} · {p.collection.day}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {agency !== null && numbered.length > 0 ? (
        <div
          className={`label-sheets stock-${stock.id}`}
          role="region"
          aria-label={t({ id: 'labels.sheets', defaultMessage: 'Labels to print' })}
          style={{
            ['--label-w' as string]: stock.label.width,
            ['--label-h' as string]: stock.label.height,
            ['--label-cols' as string]: String(stock.columns),
            ['--label-gap' as string]: stock.columnGap,
            ['--page-size' as string]: stock.page.size,
          }}
        >
          {intoPages(numbered, stock).map((page, i) => (
            <div key={i} className="label-page">
              {page.map((p) => (
                <PoolLabel key={p.localId} pool={p} agency={agency} />
              ))}
            </div>
          ))}
        </div>
      ) : null}
    </section>
  );
}
