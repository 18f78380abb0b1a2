import './history.css';
import type { HistoryEntity } from '#shared/schemas/history';
import { useLookups } from '../../db/use-lookups';
import { dateIn, useI18n } from '../../lib/i18n';
import { useOnline } from '../../lib/use-online';
import { actionWord, describeChanges } from './describe-changes';
import { historyErrorText } from './history-error-text';
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
  const intl = useI18n();
  const t = intl.formatMessage;
  const online = useOnline();
  const { lookups } = useLookups();
  const history = useRecordHistory(entity, serverId, serverUpdated, online);
  return (
    <section className="card history" aria-labelledby="history-heading">
      <h2 id="history-heading">{t({ id: 'history.title', defaultMessage: 'History' })}</h2>
      {serverId === null ? (
        <p className="muted">
          {t({
            id: 'history.notYet',
            defaultMessage: 'The history starts once this record has reached the server.',
          })}
        </p>
      ) : !online || history.error?.reason === 'offline' ? (
        <p className="muted" role="status">
          {t({
            id: 'history.offline',
            defaultMessage:
              'The history needs a connection: it is kept on the server. Open this again when the tablet is online.',
          })}
        </p>
      ) : history.error ? (
        <p role="alert">{historyErrorText(intl, history.error)}</p>
      ) : !history.data ? (
        <p className="muted">
          {t({ id: 'history.loading', defaultMessage: 'Loading the history…' })}
        </p>
      ) : history.data.rows.length === 0 ? (
        <p className="muted">
          {t({ id: 'history.none', defaultMessage: 'No changes recorded yet.' })}
        </p>
      ) : (
        <ol
          className="history-rows"
          aria-label={t({ id: 'history.changes', defaultMessage: 'Changes' })}
        >
          {history.data.rows.map((row) => (
            <li key={row.id} className="history-row">
              <p className="history-head">
                {t(
                  {
                    id: 'history.rowHead',
                    defaultMessage: '<b>{action}</b> by {who} · <time>{when}</time>',
                  },
                  {
                    action: actionWord(intl, row.action),
                    who:
                      row.user.full_name ?? t({ id: 'history.someone', defaultMessage: 'someone' }),
                    when: dateIn(intl, row.at),
                    b: (chunks) => <strong>{chunks}</strong>,
                    time: (chunks) => <time dateTime={row.at}>{chunks}</time>,
                  },
                )}
              </p>
              <Sentences lines={describeChanges(row, lookups, intl)} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
