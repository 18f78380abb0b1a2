import './history.css';
import type { HistoryEntity } from '#shared/schemas/history';
import { useLookups } from '../../db/use-lookups';
import { formatDate } from '../../lib/dates';
import { useOnline } from '../../lib/use-online';
import { ACTION_WORDS, describeChanges } from './describe-changes';
import { Sentences } from './sentences';
import { useRecordHistory } from './use-history';

type Props = {
  entity: HistoryEntity;
  /** The record's server id; null while it has not reached the server. */
  serverId: number | null;
  /**
   * The server's `updated` of the record as the tablet last saw it: when a save of this tablet
   * is acknowledged, or a pull brings someone else's, it moves and the history is read again.
   */
  serverUpdated: string | null;
};

/**
 * "History" of a record (contract §11): who changed what and when, in words, read from the
 * server (the tablet keeps no history). Offline it says it needs a connection; a record not yet
 * sent has no history on the server yet.
 */
export function HistoryPanel({ entity, serverId, serverUpdated }: Props) {
  const online = useOnline();
  const { lookups } = useLookups();
  const history = useRecordHistory(entity, serverId, serverUpdated, online);
  return (
    <section className="card history" aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {serverId === null ? (
        <p className="muted">The history starts once this record has reached the server.</p>
      ) : !online || history.error?.reason === 'offline' ? (
        <p className="muted" role="status">
          The history needs a connection: it is kept on the server. Open this again when the tablet
          is online.
        </p>
      ) : history.error ? (
        <p role="alert">{history.error.message}</p>
      ) : !history.data ? (
        <p className="muted">Loading the history…</p>
      ) : history.data.rows.length === 0 ? (
        <p className="muted">No changes recorded yet.</p>
      ) : (
        <ol className="history-rows" aria-label="Changes">
          {history.data.rows.map((row) => (
            <li key={row.id} className="history-row">
              <p className="history-head">
                <strong>{ACTION_WORDS[row.action]}</strong> by {row.user.full_name ?? 'someone'}
                {' · '}
                <time dateTime={row.at}>{formatDate(row.at)}</time>
              </p>
              <Sentences lines={describeChanges(row, lookups)} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
