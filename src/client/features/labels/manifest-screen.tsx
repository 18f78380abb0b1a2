import { useState } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { encodePoolLabel } from '#shared/labels/scan-code';
import { localDate } from '../../lib/dates';
import { loadIdentity } from '../../lib/identity';
import { useI18n } from '../../lib/i18n';
import { Banner } from '../../ui/banner';
import { QrCode } from './qr-code';
import { isNumbered, selectionFrom } from './read-label-pools';
import { SelectionPicker } from './selection-picker';
import { useLabelPools } from './use-label-pools';
import './labels.css';

/**
 * The lab manifest of a shipment: the pools going to the lab (a day's or a collection's, each
 * line can be left out), with number, species, sex, count, when collected and by whom, and a QR
 * code a line that the lab's scanner (or Trapline's Scan) reads as the vial's label. Printed with
 * the browser's Print; its "Save as PDF" is the PDF. Only numbered pools are on a manifest: the
 * lab keys its results by the pool's number.
 */
export function ManifestScreen({ preparedBy }: { preparedBy: string }) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const [params] = useSearchParams();
  const [, navigate] = useLocation();
  const selection = selectionFrom(params, localDate());
  const pools = useLabelPools(selection);
  const identity = loadIdentity();
  const agency = identity?.agency ?? null;
  /** Pools left out of this shipment (by local id); all are in until unticked. */
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const numbered = (pools ?? []).filter(isNumbered);
  const waiting = (pools ?? []).length - numbered.length;
  const shipped = numbered.filter((p) => !left.has(p.localId));
  const query =
    'collection' in selection ? `collection=${selection.collection}` : `date=${selection.date}`;
  const [printedAt] = useState(() => new Date());

  const toggle = (localId: string, on: boolean) =>
    setLeft((before) => {
      const next = new Set(before);
      if (on) next.delete(localId);
      else next.add(localId);
      return next;
    });

  return (
    <section className="screen manifest">
      {/* The page's margins on paper (a sheet's size is the printer's: Letter or A4). */}
      <style>{'@page { margin: 0.5in; }'}</style>
      <h1>{t({ id: 'labels.manifestTitle', defaultMessage: 'Lab manifest' })}</h1>
      <div className="no-print">
        <SelectionPicker
          path="/manifest"
          selection={selection}
          pools={pools}
          onDate={(date) => navigate(`/manifest?date=${date}`, { replace: true })}
          other={{
            href: `/labels?${query}`,
            text: t({ id: 'labels.toLabels', defaultMessage: 'Labels for these pools' }),
          }}
        />
        {waiting > 0 ? (
          <Banner tone="warn">
            {t(
              {
                id: 'labels.manifestWaiting',
                defaultMessage:
                  '{count, plural, one {# pool has} other {# pools have}} no number yet and {count, plural, one {is} other {are}} not on the manifest: the lab needs the office’s number. Sync, and {count, plural, one {it appears} other {they appear}} here.',
              },
              { count: waiting },
            )}
          </Banner>
        ) : null}
        <button
          type="button"
          className="button button-primary button-big"
          disabled={shipped.length === 0 || agency === null}
          onClick={() => window.print()}
        >
          {t(
            {
              id: 'labels.printManifest',
              defaultMessage: 'Print manifest ({count, plural, one {# pool} other {# pools}})',
            },
            { count: shipped.length },
          )}
        </button>
      </div>
      <dl className="facts">
        <dt>{t({ id: 'labels.agency', defaultMessage: 'Agency' })}</dt>
        <dd>{agency?.name ?? '—'}</dd>
        <dt>{t({ id: 'labels.preparedBy', defaultMessage: 'Prepared by' })}</dt>
        <dd>{preparedBy}</dd>
        <dt>{t({ id: 'labels.printed', defaultMessage: 'Printed' })}</dt>
        <dd>{intl.formatDate(printedAt, { dateStyle: 'medium', timeStyle: 'short' })}</dd>
        <dt>{t({ id: 'labels.poolCount', defaultMessage: 'Pools' })}</dt>
        <dd data-testid="manifest-count">{shipped.length}</dd>
      </dl>
      {agency !== null && numbered.length > 0 ? (
        <div className="table-scroll">
          <table className="table manifest-table">
            <thead>
              <tr>
                <th scope="col" className="no-print">
                  {t({ id: 'labels.include', defaultMessage: 'Ship' })}
                </th>
                <th scope="col">{t({ id: 'labels.qr', defaultMessage: 'QR' })}</th>
                <th scope="col">{t({ id: 'labels.pool', defaultMessage: 'Pool' })}</th>
                <th scope="col">{t({ id: 'labels.species', defaultMessage: 'Species' })}</th>
                <th scope="col">{t({ id: 'labels.sex', defaultMessage: 'Sex' })}</th>
                <th scope="col">{t({ id: 'labels.count', defaultMessage: 'Count' })}</th>
                <th scope="col">{t({ id: 'labels.collected', defaultMessage: 'Collected' })}</th>
                <th scope="col">{t({ id: 'labels.site', defaultMessage: 'Site' })}</th>
                <th scope="col">
                  {t({ id: 'labels.identifiedBy', defaultMessage: 'Identified by' })}
                </th>
              </tr>
            </thead>
            <tbody>
              {numbered.map((p) => {
                const out = left.has(p.localId);
                return (
                  <tr key={p.localId} className={out ? 'no-print manifest-left-out' : undefined}>
                    <td className="no-print">
                      <label className="check">
                        <input
                          type="checkbox"
                          checked={!out}
                          onChange={(e) => toggle(p.localId, e.target.checked)}
                          aria-label={t(
                            { id: 'labels.shipPool', defaultMessage: 'Ship pool {number}' },
                            { number: p.number },
                          )}
                        />
                      </label>
                    </td>
                    <td>
                      <QrCode
                        value={encodePoolLabel({
                          agency: agency.id,
                          poolId: p.serverId,
                          poolNumber: p.number,
                        })}
                        title={t(
                          { id: 'labels.qrOf', defaultMessage: 'QR code of pool {number}' },
                          { number: p.number },
                        )}
                      />
                    </td>
                    <th scope="row">{p.number}</th>
                    <td>{p.species}</td>
                    <td>{p.sex}</td>
                    <td>{p.count}</td>
                    <td className="manifest-day">
                      {p.collection.day}
                      {p.collection.number !== null ? (
                        <>
                          <br />
                          {t(
                            {
                              id: 'labels.collectionNumber',
                              defaultMessage: 'Collection {number}',
                            },
                            { number: p.collection.number },
                          )}
                        </>
                      ) : null}
                    </td>
                    <td className="manifest-wrap">
                      {p.site ? `${p.site.code} ${p.site.name}` : '—'}
                    </td>
                    <td>{p.collection.identifiedBy ?? '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : pools !== undefined ? (
        <p className="muted">
          {t({
            id: 'labels.manifestEmpty',
            defaultMessage: 'No numbered pools here yet.',
          })}
        </p>
      ) : null}
      <div className="manifest-sign print-only">
        <p>{t({ id: 'labels.shippedBy', defaultMessage: 'Shipped by, date' })}</p>
        <p>{t({ id: 'labels.receivedBy', defaultMessage: 'Received at the lab by, date' })}</p>
      </div>
    </section>
  );
}
