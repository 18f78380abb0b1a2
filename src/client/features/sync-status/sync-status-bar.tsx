import { useEffect, useState } from 'react';
import { useDbGone } from '../../db/use-db-gone';
import { syncSummary } from '../../sync';
import type { IntlShape } from 'react-intl';
import { useI18n } from '../../lib/i18n';
import { sinceIn, untilIn } from './format-time-in';
import { PhotoUploadLine } from './photo-upload-line';
import { PullProgress } from './pull-progress';
import './sync-status.css';
import { useSyncEngine, useSyncStatus } from './sync-engine-context';

/** How often "Last synced …" is re-read while nothing else changes: "just now" must not stay. */
const CLOCK_TICK_MS = 30_000;

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
  const intl = useI18n();
  const t = intl.formatMessage;

  let headline: string;
  /** The headline already says what needs attention (the attention line then says only the rest). */
  let headlineNamesAttention = false;
  // Nothing here may say changes are saved or waiting: the banner above says what to do.
  if (gone === 'lost')
    headline = t({
      id: 'sync.headline.lost',
      defaultMessage: 'Not syncing — this tablet’s saved data was cleared',
    });
  else if (gone === 'superseded')
    headline = t({
      id: 'sync.headline.superseded',
      defaultMessage: 'Not syncing in this tab — reload to go on',
    });
  else if (status.paused || signInNeeded)
    headline =
      waiting === 0
        ? t({ id: 'sync.headline.signInToSync', defaultMessage: 'Sign in again to keep syncing' })
        : waiting === ready
          ? t(
              {
                id: 'sync.headline.signInToSend',
                defaultMessage:
                  'Sign in again to send {waiting, plural, one {# change} other {# changes}}',
              },
              { waiting },
            )
          : // Signing in will not send the refused changes nor those held behind them.
            t(
              {
                id: 'sync.headline.signInNotSent',
                defaultMessage:
                  'Sign in again — {waiting, plural, one {# change} other {# changes}} not sent',
              },
              { waiting },
            );
  else if (!status.online)
    headline =
      waiting > 0
        ? t(
            {
              id: 'sync.headline.offlineSaved',
              defaultMessage:
                'Offline — {waiting, plural, one {# change} other {# changes}} saved on this tablet',
            },
            { waiting },
          )
        : t({
            id: 'sync.headline.offline',
            defaultMessage: 'Offline — changes are saved on this tablet',
          });
  // The app has just opened: no count is read yet, and zeros would say everything is sent.
  else if (!status.counted)
    headline = t({
      id: 'sync.headline.counting',
      defaultMessage: 'Checking for changes not sent…',
    });
  else if (status.draining && progress && progress.total > 0)
    headline = t(
      { id: 'sync.headline.sending', defaultMessage: 'Sending… {sent} of {total} sent' },
      { sent: progress.sent, total: progress.total },
    );
  else if (waiting === 0)
    headline = t({ id: 'sync.headline.allSent', defaultMessage: 'All changes sent' });
  else if (attention === 0)
    headline = t(
      {
        id: 'sync.headline.waiting',
        defaultMessage: '{waiting, plural, one {# change} other {# changes}} waiting to send',
      },
      { waiting },
    );
  else {
    // Something cannot go until the technician acts: never "waiting to send", which would say
    // it is on its way.
    headlineNamesAttention = true;
    headline =
      waiting === attention
        ? t(
            {
              id: 'sync.headline.allNeedAttention',
              defaultMessage:
                '{waiting, plural, one {# change not sent — it needs your attention} other {# changes not sent — they need your attention}}',
            },
            { waiting },
          )
        : t(
            {
              id: 'sync.headline.someNeedAttention',
              defaultMessage:
                '{waiting, plural, one {# change} other {# changes}} not sent — {attention, plural, one {# needs} other {# need}} your attention',
            },
            { waiting, attention },
          );
  }
  // A refused change is named as blocking what depends on it.
  const heldLine =
    held > 0
      ? t(
          {
            id: 'sync.held',
            defaultMessage:
              '{held, plural, one {# change waits} other {# changes wait}} {attention, plural, one {on it until it is fixed or discarded.} other {on them until they are fixed or discarded.}}',
          },
          { held, attention: it ? 1 : 2 },
        )
      : null;
  // Said once: when the headline names what needs attention, only what it holds back is added.
  const attentionLine =
    attention === 0 || headlineNamesAttention
      ? heldLine
      : heldLine
        ? t(
            {
              id: 'sync.needsAttentionAndHeld',
              defaultMessage:
                '{attention, plural, one {# change needs} other {# changes need}} your attention; {heldLine}',
            },
            { attention, heldLine },
          )
        : t(
            {
              id: 'sync.needsAttention',
              defaultMessage:
                '{attention, plural, one {# change needs your attention before it can be sent.} other {# changes need your attention before they can be sent.}}',
            },
            { attention },
          );
  // The time of the last sync that sent everything; while something waits it is a past one.
  // A time stamped while the clock ran ahead says nothing precise until the next complete sync.
  const since = status.lastSuccessAt === null ? null : sinceIn(intl, status.lastSuccessAt);
  // The headline is about the tablet's changes; this is about the office's. Offline or paused,
  // the headline says why they have not come; while a pull runs, the next try is under way.
  const failure = status.pullFailure;
  const pullLine =
    failure && status.online && !status.paused && !signInNeeded && !gone && !status.pulling
      ? t(
          {
            id: 'sync.pullFailed',
            defaultMessage: 'Office changes not received ({reason}) — trying again {when}',
          },
          { reason: describeError(intl, failure.reason), when: untilIn(intl, failure.retryAt) },
        )
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
  const fully = !(waiting === 0 && status.counted && !gone);
  const last =
    status.lastSuccessAt === null
      ? t({ id: 'sync.last.never', defaultMessage: 'Not synced yet on this tablet' })
      : since === null
        ? fully
          ? t({
              id: 'sync.last.fullyUnknown',
              defaultMessage: 'Last fully synced: time unknown (the tablet’s clock was changed)',
            })
          : t({
              id: 'sync.last.unknown',
              defaultMessage: 'Last synced: time unknown (the tablet’s clock was changed)',
            })
        : fully
          ? t({ id: 'sync.last.fully', defaultMessage: 'Last fully synced {since}' }, { since })
          : t({ id: 'sync.last.synced', defaultMessage: 'Last synced {since}' }, { since });
  const offlineHeadline = !status.online && !status.paused && !signInNeeded && !gone;
  const progressText =
    progress && progress.total > 0
      ? t(
          { id: 'sync.progress', defaultMessage: '{sent} of {total} sent' },
          { sent: progress.sent, total: progress.total },
        )
      : '';

  return (
    <section
      className="sync-status-bar"
      aria-label={t({ id: 'sync.name', defaultMessage: 'Sync status' })}
      data-online={status.online}
      data-paused={status.paused}
    >
      <div className="sync-text">
        <div className="sync-status-main" role="status" aria-live="polite">
          <strong>{headline}</strong>
          {/* Said once: an offline headline already says it. */}
          {!status.online && !offlineHeadline ? (
            <span className="sync-offline">
              {' '}
              {t({ id: 'sync.noNetwork', defaultMessage: '(no network)' })}
            </span>
          ) : null}
          {tappedOffline && !status.online ? (
            <span className="sync-tap-note">
              {t({
                id: 'sync.tappedOffline',
                defaultMessage: 'No connection — will send when online',
              })}
            </span>
          ) : null}
        </div>
        {/* Once the database is gone from this tab, its last counts are no longer the tablet's. */}
        {gone || !status.counted ? null : (
          <ul
            className="sync-counts"
            aria-label={t({ id: 'sync.counts.name', defaultMessage: 'Changes by state' })}
          >
            <li data-zero={pendingNow === 0}>
              {t({ id: 'sync.counts.pending', defaultMessage: '{n} pending' }, { n: pendingNow })}
            </li>
            <li data-zero={sendingNow === 0}>
              {t({ id: 'sync.counts.sending', defaultMessage: '{n} sending' }, { n: sendingNow })}
            </li>
            <li data-attention={status.parked > 0} data-zero={status.parked === 0}>
              {t(
                {
                  id: 'sync.counts.parked',
                  defaultMessage: '{n, plural, one {# needs attention} other {# need attention}}',
                },
                { n: status.parked },
              )}
            </li>
            {status.conflict > 0 ? (
              <li data-attention="true">
                {t(
                  {
                    id: 'sync.counts.conflict',
                    defaultMessage: '{n, plural, one {# conflict} other {# conflicts}}',
                  },
                  { n: status.conflict },
                )}
              </li>
            ) : null}
            {status.held > 0 ? (
              <li>
                {t(
                  { id: 'sync.counts.held', defaultMessage: '{n} waiting on a fix' },
                  { n: status.held },
                )}
              </li>
            ) : null}
          </ul>
        )}
        <p className="sync-last">
          {last}
          {/* The space joins it to the line above; a catalogue's message is trimmed. */}
          {lastTry
            ? ` ${t(
                { id: 'sync.lastTry', defaultMessage: '· last try: {reason}' },
                { reason: describeError(intl, lastTry.reason) },
              )}`
            : ''}
        </p>
      </div>
      {!gone && status.draining && progress && progress.total > 0 ? (
        <progress
          className="sync-progress"
          value={progress.sent}
          max={progress.total}
          aria-label={progressText}
          style={{ width: '100%', height: '0.75rem' }}
        />
      ) : null}
      <PullProgress pulling={status.pulling} />
      <PhotoUploadLine />
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
          {t({ id: 'sync.signIn', defaultMessage: 'Sign in' })}
        </button>
      ) : (
        <button
          type="button"
          className="sync-now"
          style={{ minHeight: 48, minWidth: 48 }}
          disabled={status.paused}
          onClick={syncNow}
        >
          {t({ id: 'sync.syncNow', defaultMessage: 'Sync now' })}
        </button>
      )}
    </section>
  );
}

function describeError(intl: IntlShape, reason: string): string {
  const t = intl.formatMessage;
  switch (reason) {
    case 'network':
      return t({ id: 'sync.error.network', defaultMessage: 'no connection' });
    case 'timeout':
      return t({ id: 'sync.error.timeout', defaultMessage: 'the server took too long' });
    case 'rate_limited':
      return t({ id: 'sync.error.rateLimited', defaultMessage: 'the server asked to wait' });
    case 'rejected':
      return t({ id: 'sync.error.rejected', defaultMessage: 'the server refused the request' });
    case 'tablet':
      return t({ id: 'sync.error.tablet', defaultMessage: 'this tablet could not store them' });
    default:
      return t({ id: 'sync.error.unavailable', defaultMessage: 'the server was unavailable' });
  }
}
