import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { LookupsDocument } from '#shared';
import type { CollectionRow, PoolRow, PoolTestRow } from '../../db/database';
import { poolNumberOf } from '../../db/record-numbers';
import { dateIn, useI18n } from '../../lib/i18n';
import { PoolTitle } from '../../ui/record-number';
import { nameIn } from './lookup-names';

/** A row of the collection screen that a sync badge is drawn for. */
export type AnyRow = CollectionRow | PoolRow | PoolTestRow;

function TestLine({
  test,
  label,
  editable,
  lookups,
  renderBadge,
}: {
  test: PoolTestRow;
  /** Accessible name of its edit link, e.g. "Edit test result 1 of pool 2". */
  label: string;
  editable: boolean;
  lookups: LookupsDocument;
  renderBadge?: (row: AnyRow) => ReactNode;
}) {
  const d = test.data;
  const intl = useI18n();
  const t = intl.formatMessage;
  return (
    <li className="row wrap">
      <span>
        {t(
          {
            id: 'collectionDetail.testLine',
            defaultMessage:
              '{target} by {method}: <b>{status}</b>{hasValue, select, yes { (Ct {value})} other {}} · {day}',
          },
          {
            target: nameIn(lookups.test_target, d.target),
            method: nameIn(lookups.test_method, d.method),
            status: nameIn(lookups.test_status, d.status),
            hasValue: typeof d.value === 'number' ? 'yes' : 'no',
            value: typeof d.value === 'number' ? intl.formatNumber(d.value) : '',
            day: dateIn(intl, String(d.test_date ?? ''), true),
            b: (text) => <strong key="status">{text}</strong>,
          },
        )}
      </span>
      {renderBadge?.(test)}
      {editable ? (
        <Link href={`/pool-tests/${test.localId}/edit`} className="button" aria-label={label}>
          {t({ id: 'collectionDetail.editTest', defaultMessage: 'Edit' })}
        </Link>
      ) : null}
    </li>
  );
}

/** A collection's pools, each with its test results, and the ways to labels and the manifest. */
export function CollectionPools({
  localId,
  pools,
  editable,
  lookups,
  renderBadge,
}: {
  localId: string;
  pools: readonly { pool: PoolRow; tests: PoolTestRow[] }[] | undefined;
  /** False once the collection is deleted: nothing is changed or added under it. */
  editable: boolean;
  lookups: LookupsDocument;
  renderBadge?: (row: AnyRow) => ReactNode;
}) {
  const intl = useI18n();
  const t = intl.formatMessage;
  return (
    <>
      <h2>{t({ id: 'collectionDetail.pools', defaultMessage: 'Pools' })}</h2>
      {pools && pools.length > 0 && editable ? (
        <div className="row wrap">
          <Link href={`/labels?collection=${localId}`} className="button">
            {intl.formatMessage({ id: 'labels.printLabels', defaultMessage: 'Print labels' })}
          </Link>
          <Link href={`/manifest?collection=${localId}`} className="button">
            {intl.formatMessage({ id: 'labels.labManifest', defaultMessage: 'Lab manifest' })}
          </Link>
        </div>
      ) : null}
      {pools && pools.length > 0 ? (
        <ul
          className="list"
          aria-label={t({ id: 'collectionDetail.pools', defaultMessage: 'Pools' })}
        >
          {pools.map(({ pool, tests }, i) => {
            // Links name the pool as its card does: by its number once it has one, by its place
            // until then (equal pools keep their places: use-collections.ts).
            const poolName = String(poolNumberOf(pool) ?? i + 1);
            return (
              <li key={pool.localId} className="card">
                <div className="row wrap">
                  <strong>
                    <PoolTitle
                      number={poolNumberOf(pool)}
                      place={i + 1}
                      what={`${nameIn(lookups.species, pool.data.species)} ${nameIn(lookups.sex, pool.data.sex)}`}
                      count={pool.data.num_count}
                    />
                  </strong>
                  {renderBadge?.(pool)}
                  {editable ? (
                    <>
                      <Link
                        href={`/pools/${pool.localId}/edit`}
                        className="button"
                        aria-label={t(
                          {
                            id: 'collectionDetail.editPoolNamed',
                            defaultMessage: 'Edit pool {pool}',
                          },
                          { pool: poolName },
                        )}
                      >
                        {t({ id: 'collectionDetail.editPool', defaultMessage: 'Edit pool' })}
                      </Link>
                      <Link href={`/pools/${pool.localId}/tests/new`} className="button">
                        {t({ id: 'collectionDetail.addTest', defaultMessage: 'Add test result' })}
                      </Link>
                    </>
                  ) : null}
                </div>
                {tests.length > 0 ? (
                  <ul className="tests">
                    {tests.map((test, j) => (
                      <TestLine
                        key={test.localId}
                        test={test}
                        label={t(
                          {
                            id: 'collectionDetail.editTestNamed',
                            defaultMessage: 'Edit test result {n} of pool {pool}',
                          },
                          { n: j + 1, pool: poolName },
                        )}
                        editable={editable}
                        lookups={lookups}
                        renderBadge={renderBadge}
                      />
                    ))}
                  </ul>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">
          {t({ id: 'collectionDetail.noPools', defaultMessage: 'No pools yet.' })}
        </p>
      )}
    </>
  );
}
