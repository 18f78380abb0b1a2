import { encodePoolLabel } from '#shared/labels/scan-code';
import { useI18n } from '../../lib/i18n';
import { QrCode } from './qr-code';
import type { NumberedPool } from './read-label-pools';

/**
 * One vial's label: the QR code (agency, pool id, pool number) and, in text for the lab and
 * for a label the camera cannot read, the pool number, species, sex, count and collection day.
 * Only for a numbered pool: a label is never printed with a number the office has not given.
 */
export function PoolLabel({ pool, agency }: { pool: NumberedPool; agency: number }) {
  const intl = useI18n();
  const title = intl.formatMessage(
    { id: 'labels.poolNumber', defaultMessage: 'Pool {number}' },
    { number: pool.number },
  );
  return (
    <article className="pool-label" aria-label={title}>
      <QrCode
        value={encodePoolLabel({ agency, poolId: pool.serverId, poolNumber: pool.number })}
        title={intl.formatMessage(
          { id: 'labels.qrOf', defaultMessage: 'QR code of pool {number}' },
          { number: pool.number },
        )}
      />
      <div className="pool-label-text">
        <strong className="pool-label-number">{title}</strong>
        <span>{pool.species}</span>
        <span>
          {intl.formatMessage(
            { id: 'labels.sexAndCount', defaultMessage: '{sex} × {count}' },
            { sex: pool.sex, count: pool.count },
          )}
        </span>
        <span>{pool.collection.day}</span>
        {pool.site ? <span className="pool-label-small">{pool.site.code}</span> : null}
      </div>
    </article>
  );
}
