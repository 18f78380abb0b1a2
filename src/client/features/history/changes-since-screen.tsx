import './history.css';
import { useState } from 'react';
import type { HistoryRow } from '#shared/schemas/history';
import { useLookups } from '../../db/use-lookups';
import { localDate } from '../../lib/dates';
import { dateIn, useI18n } from '../../lib/i18n';
import { useOnline } from '../../lib/use-online';
import { actionWord, describeChanges } from './describe-changes';
import { fetchHistory, HistoryError } from './fetch-history';
import { historyCsv, recordWord } from './history-csv';
import { historyErrorText } from './history-error-text';
import { Sentences } from './sentences';
import { SINCE_PAGE_SIZE, useChangesSince } from './use-history';

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** The first day of the list when the screen opens: a week back. */
const aWeekAgo = () => localDate(new Date(Date.now() - WEEK_MS));

/** Every page of the agency's changes since `since`, for the CSV (1,000 a request). */
async function allChangesSince(since: string): Promise<HistoryRow[]> {
  const rows: HistoryRow[] = [];
  for (let page = 1; ; page += 1) {
    const list = await fetchHistory(
      `since=${encodeURIComponent(since)}&page=${page}&pageSize=1000`,
    );
    rows.push(...list.rows);
    if (list.rows.length < 1000 || rows.length >= list.count) return rows;
  }
}

/**
 * The manager's "changes since" list (/office/history): every change the agency's records had
 * from a day on, newest page last (oldest first, as the server keeps them), with a CSV of all of
 * them. Read from the server: offline it says it needs a connection.
 */
export function ChangesSinceScreen() {
  const intl = useI18n();
  const t = intl.formatMessage;
  const online = useOnline();
  const { lookups } = useLookups();
  const [since, setSince] = useState(aWeekAgo);
  const [page, setPage] = useState(1);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(since);
  const list = useChangesSince(since, page, online && valid);
  const [csv, setCsv] = useState<{ busy: boolean; message: string | null }>({
    busy: false,
    message: null,
  });
  const describe = (row: HistoryRow) => describeChanges(row, lookups, intl);
  const pages = list.data ? Math.max(1, Math.ceil(list.data.count / SINCE_PAGE_SIZE)) : 1;

  const download = async () => {
    setCsv({ busy: true, message: null });
    try {
      const rows = await allChangesSince(since);
      const url = URL.createObjectURL(
        new Blob([historyCsv(rows, describe, intl)], { type: 'text/csv;charset=utf-8' }),
      );
      const a = document.createElement('a');
      a.href = url;
      a.download = `trapline-changes-since-${since}.csv`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setCsv({
        busy: false,
        message: t(
          {
            id: 'history.csv.downloaded',
            defaultMessage:
              'Downloaded {fileName} ({count, plural, one {# change} other {# changes}})',
          },
          { fileName: a.download, count: rows.length },
        ),
      });
    } catch (e) {
      setCsv({
        busy: false,
        message: e instanceof HistoryError ? historyErrorText(intl, e) : String(e),
      });
    }
  };

  return (
    <section className="screen">
      <h1>{t({ id: 'history.since.title', defaultMessage: 'Changes since' })}</h1>
      <div className="row wrap">
        <label className="field">
          <span className="label">{t({ id: 'history.since.since', defaultMessage: 'Since' })}</span>
          <input
            type="date"
            value={since}
            max={localDate()}
            onChange={(e) => {
              setSince(e.target.value);
              setPage(1);
            }}
          />
        </label>
        <button
          type="button"
          className="button"
          onClick={() => void download()}
          disabled={!online || !valid || csv.busy}
        >
          {csv.busy
            ? t({ id: 'reports.csv.preparing', defaultMessage: 'Preparing CSV…' })
            : t({ id: 'reports.csv.download', defaultMessage: 'Download CSV' })}
        </button>
        {csv.message ? (
          <span role="status" className="muted">
            {csv.message}
          </span>
        ) : null}
      </div>
      {!online || list.error?.reason === 'offline' ? (
        <p className="muted" role="status">
          {t({
            id: 'history.since.offline',
            defaultMessage:
              'The changes need a connection: they are kept on the server. Open this again when the tablet is online.',
          })}
        </p>
      ) : !valid ? (
        <p role="alert">
          {t({
            id: 'history.since.pickDay',
            defaultMessage: 'Pick a day to list the changes from.',
          })}
        </p>
      ) : list.error ? (
        <p role="alert">
          {list.error instanceof HistoryError
            ? historyErrorText(intl, list.error)
            : String(list.error)}
        </p>
      ) : !list.data ? (
        <p className="muted">
          {t({ id: 'history.since.loading', defaultMessage: 'Loading the changes…' })}
        </p>
      ) : (
        <>
          <p className="muted" data-testid="changes-count">
            {t(
              {
                id: 'history.since.count',
                defaultMessage: '{count, plural, one {# change} other {# changes}} since {day}',
              },
              { count: list.data.count, day: dateIn(intl, since) },
            )}
          </p>
          <ol
            className="history-rows"
            aria-label={t({ id: 'history.changes', defaultMessage: 'Changes' })}
          >
            {list.data.rows.map((row) => (
              <li key={row.id} className="history-row">
                <p className="history-head">
                  {t(
                    {
                      id: 'history.since.rowHead',
                      defaultMessage:
                        '<b>{record} (record {id}): {action}</b> by {who} · <time>{when}</time>',
                    },
                    {
                      record: recordWord(intl, row.entity),
                      id: row.record,
                      action: actionWord(intl, row.action),
                      who:
                        row.user.full_name ??
                        t({ id: 'history.someone', defaultMessage: 'someone' }),
                      when: dateIn(intl, row.at),
                      b: (chunks) => <strong>{chunks}</strong>,
                      time: (chunks) => <time dateTime={row.at}>{chunks}</time>,
                    },
                  )}
                </p>
                <Sentences lines={describe(row)} />
              </li>
            ))}
          </ol>
          {pages > 1 ? (
            <div className="row">
              <button
                type="button"
                className="button"
                disabled={page <= 1}
                onClick={() => setPage(page - 1)}
              >
                {t({ id: 'history.since.previous', defaultMessage: 'Previous page' })}
              </button>
              <span>
                {t(
                  { id: 'history.since.page', defaultMessage: 'Page {page} of {pages}' },
                  { page, pages },
                )}
              </span>
              <button
                type="button"
                className="button"
                disabled={page >= pages}
                onClick={() => setPage(page + 1)}
              >
                {t({ id: 'history.since.next', defaultMessage: 'Next page' })}
              </button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
