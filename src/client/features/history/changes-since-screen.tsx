import './history.css';
import { useState } from 'react';
import type { HistoryRow } from '#shared/schemas/history';
import { useLookups } from '../../db/use-lookups';
import { formatDate, localDate } from '../../lib/dates';
import { useOnline } from '../../lib/use-online';
import { ACTION_WORDS, describeChanges } from './describe-changes';
import { Sentences } from './sentences';
import { fetchHistory, HistoryError } from './fetch-history';
import { historyCsv, RECORD_WORDS } from './history-csv';
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
  const describe = (row: HistoryRow) => describeChanges(row, lookups);
  const pages = list.data ? Math.max(1, Math.ceil(list.data.count / SINCE_PAGE_SIZE)) : 1;

  const download = async () => {
    setCsv({ busy: true, message: null });
    try {
      const rows = await allChangesSince(since);
      const url = URL.createObjectURL(
        new Blob([historyCsv(rows, describe)], { type: 'text/csv;charset=utf-8' }),
      );
      const a = document.createElement('a');
      a.href = url;
      a.download = `trapline-changes-since-${since}.csv`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setCsv({ busy: false, message: `Downloaded ${a.download} (${rows.length} changes)` });
    } catch (e) {
      setCsv({ busy: false, message: e instanceof Error ? e.message : String(e) });
    }
  };

  return (
    <section className="screen">
      <h1>Changes since</h1>
      <div className="row wrap">
        <label className="field">
          <span className="label">Since</span>
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
          {csv.busy ? 'Preparing CSV…' : 'Download CSV'}
        </button>
        {csv.message ? (
          <span role="status" className="muted">
            {csv.message}
          </span>
        ) : null}
      </div>
      {!online || list.error?.reason === 'offline' ? (
        <p className="muted" role="status">
          The changes need a connection: they are kept on the server. Open this again when the
          tablet is online.
        </p>
      ) : !valid ? (
        <p role="alert">Pick a day to list the changes from.</p>
      ) : list.error ? (
        <p role="alert">
          {list.error instanceof HistoryError ? list.error.message : String(list.error)}
        </p>
      ) : !list.data ? (
        <p className="muted">Loading the changes…</p>
      ) : (
        <>
          <p className="muted" data-testid="changes-count">
            {list.data.count === 1 ? '1 change' : `${list.data.count} changes`} since{' '}
            {formatDate(since)}
          </p>
          <ol className="history-rows" aria-label="Changes">
            {list.data.rows.map((row) => (
              <li key={row.id} className="history-row">
                <p className="history-head">
                  <strong>
                    {RECORD_WORDS[row.entity]} (record {row.record}): {ACTION_WORDS[row.action]}
                  </strong>{' '}
                  by {row.user.full_name ?? 'someone'} ·{' '}
                  <time dateTime={row.at}>{formatDate(row.at)}</time>
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
                Previous page
              </button>
              <span>
                Page {page} of {pages}
              </span>
              <button
                type="button"
                className="button"
                disabled={page >= pages}
                onClick={() => setPage(page + 1)}
              >
                Next page
              </button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
