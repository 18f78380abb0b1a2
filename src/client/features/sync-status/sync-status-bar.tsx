import { useEffect, useState } from 'react';
import { useDbGone } from '../../db/use-db-gone';
import { syncSummary } from '../../sync';
import { saySince } from '../../lib/dates';
import { formatUntil } from './format-time';
import { PullProgress } from './pull-progress';
import './sync-status.css';
import { useSyncEngine, useSyncStatus } from './sync-engine-context';

/** How often "Last synced …" is re-read while nothing else changes: "just now" must not stay. */
const CLOCK_TICK_MS = 30_000;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The outbox at a glance, always on screen: offline or not, how many changes are not on the
 * server (one count, held-behind ones included), what is being sent (with progress while
 * draining), what needs the user and what it holds back, when a sync last sent everything, and a
 * 48 px "Sync now" button. Nothing here may reassure wrongly.
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
  const gone = useDbGone(engine.db);
  // The time since the last sync moves on with no status change (an idle or offline tablet).
  const [, setTicks] = useState(0);
  useEffect(() => {
    const tick = setInterval(() => setTicks((n) => n + 1), CLOCK_TICK_MS);
    return () => clearInterval(tick);
  }, []);
  // A tap on Sync now with no connection can send nothing: it says so, until the network is back.
  const [tappedOffline, setTappedOffline] = useState(false);
  useEffect(() => {
    if (status.online) setTappedOffline(false);
  }, [status.online]);
  const syncNow = () => {
    if (!status.online) setTappedOffline(true);
    engine.requestSync('manual');
  };
  // Every count below comes from syncSummary, as on Home and the Sync screen.
  const { waiting, ready, attention, held } = syncSummary(status);
  const { progress } = status;
  // Offline, paused or without its database, nothing is on its way: an entry still stored as being
  // sent (the app was closed mid-send) waits like the others.
  const sendingNow = status.online && !status.paused && !gone ? status.sending : 0;
  const pendingNow = status.pending + status.sending - sendingNow;
  const it = attention === 1;

  let headline: string;
  // Nothing here may say changes are saved or waiting: the banner above says what to do.
  if (gone === 'lost') headline = 'Not syncing — this tablet’s saved data was cleared';
  else if (gone === 'superseded') headline = 'Not syncing in this tab — reload to go on';
  else if (status.paused || signInNeeded)
    headline =
      waiting === 0
        ? 'Sign in again to keep syncing'
        : waiting === ready
          ? `Sign in again to send ${plural(waiting, 'change', 'changes')}`
          : // Signing in will not send the refused changes nor those held behind them.
            `Sign in again — ${plural(waiting, 'change', 'changes')} not sent`;
  else if (!status.online)
    headline =
      waiting > 0
        ? `Offline — ${plural(waiting, 'change', 'changes')} saved on this tablet`
        : 'Offline — changes are saved on this tablet';
  // The app has just opened: no count is read yet, and zeros would say everything is sent.
  else if (!status.counted) headline = 'Checking for changes not sent…';
  else if (status.draining && progress && progress.total > 0)
    headline = `Sending… ${progress.sent} of ${progress.total} sent`;
  else if (waiting === 0) headline = 'All changes sent';
  else if (attention === 0) headline = `${plural(waiting, 'change', 'changes')} waiting to send`;
  else
    // Something cannot go until the technician acts: never "waiting to send", which would say
    // it is on its way.
    headline = `${plural(waiting, 'change', 'changes')} not sent — ${
      waiting === attention
        ? it
          ? 'it needs'
          : 'they need'
        : `${attention} ${it ? 'needs' : 'need'}`
    } your attention`;
  const headlineNamesAttention = headline.endsWith('your attention');
  // A refused change is named as blocking what depends on it.
  const heldLine =
    held > 0
      ? `${plural(held, 'change waits', 'changes wait')} on ${it ? 'it' : 'them'} until ${it ? 'it is' : 'they are'} fixed or discarded.`
      : null;
  const needs = `${plural(attention, 'change needs', 'changes need')} your attention`;
  // Said once: when the headline names what needs attention, only what it holds back is added.
  const attentionLine =
    attention === 0 || headlineNamesAttention
      ? heldLine
      : heldLine
        ? `${needs}; ${heldLine}`
        : `${needs} before ${it ? 'it' : 'they'} can be sent.`;
  // The headline is about the tablet's changes; this is about the office's. Offline or paused,
  // the headline says why they have not come; while a pull runs, the next try is under way.
  const failure = status.pullFailure;
  const pullLine =
    failure && status.online && !status.paused && !signInNeeded && !gone && !status.pulling
      ? `Office changes not received (${describeError(failure.reason)}) — trying again ${formatUntil(failure.retryAt)}`
      : null;
  // A failed try is news only until changes go again: once this drain has had one acknowledged,
  // or a later sync sent everything, the connection it blamed is back.
  const failedTry = status.lastError;
  const lastTry =
    failedTry &&
    ready > 0 &&
    !status.paused &&
    !gone &&
    !(status.draining && (progress?.sent ?? 0) > 0) &&
    !(status.lastSuccessAt !== null && status.lastSuccessAt >= failedTry.at)
      ? failedTry
      : null;
  // The time of the last sync that sent everything; while something waits it is a past one.
  // A time stamped while the clock ran ahead says nothing precise until the next complete sync.
  const last =
    status.lastSuccessAt === null
      ? 'Not synced yet on this tablet'
      : saySince(
          waiting === 0 && status.counted && !gone ? 'Last synced' : 'Last fully synced',
          status.lastSuccessAt,
        );

  return (
    <section
      className="sync-status-bar"
      aria-label="Sync status"
      data-online={status.online}
      data-paused={status.paused}
    >
      <div className="sync-text">
        <div className="sync-status-main" role="status" aria-live="polite">
          <strong>{headline}</strong>
          {/* Said once: an offline headline already says it. */}
          {!status.online && !headline.startsWith('Offline') ? (
            <span className="sync-offline"> (no network)</span>
          ) : null}
          {tappedOffline && !status.online ? (
            <span className="sync-tap-note">No connection — will send when online</span>
          ) : null}
        </div>
        {/* Once the database is gone from this tab, its last counts are no longer the tablet's. */}
        {gone || !status.counted ? null : (
          <ul className="sync-counts" aria-label="Changes by state">
            <li data-zero={pendingNow === 0}>{plural(pendingNow, 'pending', 'pending')}</li>
            <li data-zero={sendingNow === 0}>{plural(sendingNow, 'sending', 'sending')}</li>
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
        )}
        <p className="sync-last">
          {last}
          {lastTry ? ` · last try: ${describeError(lastTry.reason)}` : ''}
        </p>
      </div>
      {!gone && status.draining && progress && progress.total > 0 ? (
        <progress
          className="sync-progress"
          value={progress.sent}
          max={progress.total}
          aria-label={`${progress.sent} of ${progress.total} sent`}
          style={{ width: '100%', height: '0.75rem' }}
        />
      ) : null}
      <PullProgress pulling={status.pulling} />
      {pullLine ? <p className="sync-pull-failed">{pullLine}</p> : null}
      {attentionLine && !gone ? <p className="sync-attention">{attentionLine}</p> : null}
      {gone ? null : onSignIn && (status.paused || signInNeeded) ? (
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
          onClick={syncNow}
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
    case 'rejected':
      return 'the server refused the request';
    case 'tablet':
      return 'this tablet could not store them';
    default:
      return 'the server was unavailable';
  }
}
