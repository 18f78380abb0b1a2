import { formatSince } from './format-time';
import './sync-status.css';
import { useSyncEngine, useSyncStatus } from './sync-engine-context';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The outbox at a glance, always on screen: offline or not, what waits, what is being sent
 * (with progress while draining), what needs the user, when the tablet last reached the
 * server, and a 48 px "Sync now" button.
 */
export function SyncStatusBar({
  onSignIn,
  signInNeeded = false,
}: {
  /** Opens the sign-in sheet (it may have been put off with "Later"). */
  onSignIn?: () => void;
  /** The server asked for the password, even if no change is waiting yet. */
  signInNeeded?: boolean;
} = {}) {
  const engine = useSyncEngine();
  const status = useSyncStatus();
  const waiting = status.pending + status.held;
  const attention = status.parked + status.conflict;
  const { progress } = status;

  let headline: string;
  if (status.paused || signInNeeded)
    headline =
      waiting + status.sending > 0
        ? `Sign in again to send ${plural(waiting + status.sending, 'change', 'changes')}`
        : 'Sign in again to keep syncing';
  else if (!status.online)
    headline =
      waiting > 0
        ? `Offline — ${plural(waiting, 'change', 'changes')} saved on this tablet`
        : 'Offline — changes are saved on this tablet';
  else if (status.draining && progress && progress.total > 0)
    headline = `Sending… ${progress.sent} of ${progress.total} sent`;
  else if (waiting + status.sending > 0)
    headline = `${plural(waiting + status.sending, 'change', 'changes')} waiting to send`;
  else if (attention > 0)
    // A refused change is not sent: "All changes sent" would tell the technician to stop looking.
    headline = `${plural(attention, 'change', 'changes')} not sent — ${attention === 1 ? 'it needs' : 'they need'} your attention`;
  else headline = 'All changes sent';
  // The headline names refused changes only when nothing else leads it; else a line of its own.
  const attentionLine =
    attention > 0 && !headline.endsWith('your attention')
      ? attention === 1
        ? '1 change needs your attention before it can be sent.'
        : `${attention} changes need your attention before they can be sent.`
      : null;

  return (
    <section
      className="sync-status-bar"
      aria-label="Sync status"
      data-online={status.online}
      data-paused={status.paused}
    >
      <div className="sync-status-main" role="status" aria-live="polite">
        <strong>{headline}</strong>
        {!status.online ? <span className="sync-offline"> (no network)</span> : null}
      </div>
      {status.draining && progress && progress.total > 0 ? (
        <progress
          className="sync-progress"
          value={progress.sent}
          max={progress.total}
          aria-label={`${progress.sent} of ${progress.total} sent`}
          style={{ width: '100%', height: '0.75rem' }}
        />
      ) : null}
      <ul className="sync-counts" aria-label="Changes by state">
        <li data-zero={status.pending === 0}>{plural(status.pending, 'pending', 'pending')}</li>
        <li data-zero={status.sending === 0}>{plural(status.sending, 'sending', 'sending')}</li>
        <li data-attention={status.parked > 0} data-zero={status.parked === 0}>
          {plural(status.parked, 'needs attention', 'need attention')}
        </li>
        {status.conflict > 0 ? (
          <li data-attention="true">{plural(status.conflict, 'conflict', 'conflicts')}</li>
        ) : null}
        {status.held > 0 ? (
          <li>{plural(status.held, 'waiting on a fix', 'waiting on a fix')}</li>
        ) : null}
      </ul>
      <p className="sync-last">
        {status.lastSuccessAt
          ? `Last synced ${formatSince(status.lastSuccessAt)}`
          : 'Not synced yet on this tablet'}
        {status.lastError && waiting > 0 && !status.paused
          ? ` · last try: ${describeError(status.lastError.reason)}`
          : ''}
      </p>
      {attentionLine ? <p className="sync-attention">{attentionLine}</p> : null}
      {onSignIn && (status.paused || signInNeeded) ? (
        // Paused for sign-in, Sync now could do nothing: the way forward is the password.
        <button
          type="button"
          className="sync-now"
          style={{ minHeight: 48, minWidth: 48 }}
          onClick={onSignIn}
        >
          Sign in
        </button>
      ) : (
        <button
          type="button"
          className="sync-now"
          style={{ minHeight: 48, minWidth: 48 }}
          disabled={status.paused}
          onClick={() => engine.requestSync('manual')}
        >
          Sync now
        </button>
      )}
    </section>
  );
}

function describeError(reason: string): string {
  switch (reason) {
    case 'network':
      return 'no connection';
    case 'timeout':
      return 'the server took too long';
    case 'rate_limited':
      return 'the server asked to wait';
    default:
      return 'the server was unavailable';
  }
}
