import { useState } from 'react';
import type { Entity, OutboxEntry } from '#shared';
import { sendParkedAgain } from '../../db/update-record';
import { fieldIn, translateRule, useI18n } from '../../lib/i18n';
import { Dialog } from '../../ui/dialog';
import { DependentsNotConfirmedError, isOutcomeUnknown, syncSummary } from '../../sync';
import { describeEntryIn } from './describe-entry-in';
import { useSyncEngine, useSyncStatus } from './sync-engine-context';
import { labelEntries, useAttentionEntries, type AttentionItem } from './use-attention-entries';

type Pending = { item: AttentionItem; dependents: { entry: OutboxEntry; label: string }[] };

/** What is not on the server, in the sync bar's counts (syncSummary): "4 changes not sent: …". */
function NotSentSummary() {
  const { waiting, ready, attention, held } = syncSummary(useSyncStatus());
  const intl = useI18n();
  const t = intl.formatMessage;
  if (waiting === 0)
    return (
      <p className="sync-summary">
        {t({ id: 'parked.allSent', defaultMessage: 'All changes sent.' })}
      </p>
    );
  const parts = [
    attention > 0
      ? t(
          {
            id: 'parked.partAttention',
            defaultMessage: '{n, plural, one {# needs} other {# need}} your attention',
          },
          { n: attention },
        )
      : null,
    held > 0
      ? t(
          {
            id: 'parked.partHeld',
            defaultMessage:
              '{n, plural, one {# waits} other {# wait}} on {attention, plural, one {it} other {them}}',
          },
          { n: held, attention },
        )
      : null,
    ready > 0
      ? t({ id: 'parked.partReady', defaultMessage: '{n, number} waiting to send' }, { n: ready })
      : null,
  ].filter((part): part is string => part !== null);
  return (
    <p className="sync-summary">
      {t(
        {
          id: 'parked.notSent',
          defaultMessage: '{n, plural, one {# change} other {# changes}} not sent: {parts}.',
        },
        { n: waiting, parts: parts.join(', ') },
      )}
    </p>
  );
}

/** The foot of a question sheet: what went wrong, the safe way out first, then the act. */
function Choice(props: {
  error: string | null;
  busy: boolean;
  keep: string;
  onKeep: () => void;
  act: string;
  actClass: string;
  onAct: () => Promise<void>;
}) {
  return (
    <>
      {props.error ? <p role="alert">{props.error}</p> : null}
      <div className="row">
        <button type="button" className="button" style={{ minHeight: 48 }} onClick={props.onKeep}>
          {props.keep}
        </button>
        <button
          type="button"
          className={`button ${props.actClass}`}
          style={{ minHeight: 48 }}
          disabled={props.busy}
          onClick={() => void props.onAct()}
        >
          {props.act}
        </button>
      </div>
    </>
  );
}

/**
 * Every change the server refused, with its message and the changes it holds back (they wait on
 * it). Fix opens the record's form (the app decides how, through `onFix`), except for a refused
 * deletion, which has nothing to fix (Discard keeps the record); Discard asks first, in
 * a dialog that names every change that depends on it: those go too, or nothing goes. A create
 * whose outcome the server could not tell has nothing to fix: it offers Send again (after a
 * warning that it may make a second copy), which sends the same record under a new
 * Idempotency-Key. Conflicts are listed too when `onResolveConflict` is given.
 */
export function ParkedEntries({
  onFix,
  onResolveConflict,
}: {
  onFix: (entity: Entity, localId: string) => void;
  onResolveConflict?: (entryId: string) => void;
}) {
  const engine = useSyncEngine();
  const intl = useI18n();
  const t = intl.formatMessage;
  const describe = (entry: OutboxEntry, data?: Record<string, unknown> | null) =>
    describeEntryIn(intl, entry, data);
  const items = useAttentionEntries(onResolveConflict ? ['parked', 'conflict'] : ['parked']);
  const [confirming, setConfirming] = useState<Pending | null>(null);
  const [resending, setResending] = useState<AttentionItem | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const askDiscard = async (item: AttentionItem) => {
    setError(null);
    const dependents = await engine.dependentsOf(item.entry.id);
    setConfirming({ item, dependents: await labelEntries(engine.db, dependents, describe) });
  };

  const confirmDiscard = async () => {
    if (!confirming) return;
    setBusy(true);
    try {
      await engine.discard(
        confirming.item.entry.id,
        confirming.dependents.map((d) => d.entry.id),
      );
      setConfirming(null);
    } catch (err) {
      if (err instanceof DependentsNotConfirmedError) {
        // Something new came to depend on it meanwhile: show the full list again.
        await askDiscard(confirming.item);
        setError(
          t({
            id: 'parked.moreDepend',
            defaultMessage: 'More changes now depend on this one. Check the list again.',
          }),
        );
      } else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const confirmSendAgain = async () => {
    if (!resending) return;
    setBusy(true);
    setError(null);
    try {
      await sendParkedAgain(engine.db, resending.entry.id);
      setResending(null);
      engine.requestSync('manual');
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  if (!items) return null;

  return (
    <section aria-label={t({ id: 'parked.name', defaultMessage: 'Changes that need attention' })}>
      <NotSentSummary />
      {items.length === 0 ? (
        <p className="muted">
          {t({ id: 'parked.nothing', defaultMessage: 'Nothing needs your attention.' })}
        </p>
      ) : null}
      <ul className="list parked-entries">
        {items.map((item) => {
          const { entry, record } = item;
          const refusal = record?.problem?.message ?? entry.lastError?.body?.message;
          const message = refusal
            ? translateRule(intl, refusal)
            : t({ id: 'parked.refused', defaultMessage: 'The server refused this change.' });
          const fields = record?.problem?.fields ?? entry.lastError?.body?.fields ?? [];
          const unknown = entry.state === 'parked' && isOutcomeUnknown(entry.lastError);
          // A refused deletion has no form to fix (the record is being deleted): Discard keeps
          // the record as the server has it.
          const fixable = entry.op !== 'delete';
          return (
            <li key={entry.id} className="list-item parked-entry" data-state={entry.state}>
              <strong>{describe(entry, record?.data)}</strong>
              <p role="note">{message}</p>
              {fields.length > 0 ? (
                <ul className="field-problems">
                  {fields.map((f) => (
                    <li key={f.path}>
                      {t(
                        { id: 'rules.fieldSummary', defaultMessage: '{field}: {problem}' },
                        { field: fieldIn(intl, f.path), problem: translateRule(intl, f.message) },
                      )}
                    </li>
                  ))}
                </ul>
              ) : null}
              {item.holds.length > 0 ? (
                <>
                  <p>
                    {t(
                      {
                        id: 'parked.holds',
                        defaultMessage:
                          'It holds back {n, plural, one {# change that depends} other {# changes that depend}} on it:',
                      },
                      { n: item.holds.length },
                    )}
                  </p>
                  <ul
                    className="held-back"
                    aria-label={t({ id: 'parked.heldBack', defaultMessage: 'Held back by it' })}
                  >
                    {item.holds.map((d) => (
                      <li key={d.entry.id}>{d.label}</li>
                    ))}
                  </ul>
                </>
              ) : null}
              <div className="row">
                {entry.state === 'conflict' && onResolveConflict ? (
                  <button
                    type="button"
                    className="button button-primary"
                    style={{ minHeight: 48 }}
                    onClick={() => onResolveConflict(entry.id)}
                  >
                    {t({ id: 'parked.chooseValues', defaultMessage: 'Choose values' })}
                  </button>
                ) : unknown ? (
                  <button
                    type="button"
                    className="button button-primary"
                    style={{ minHeight: 48 }}
                    onClick={() => {
                      setError(null);
                      setResending(item);
                    }}
                  >
                    {t({ id: 'parked.sendAgain', defaultMessage: 'Send again' })}
                  </button>
                ) : fixable ? (
                  <button
                    type="button"
                    className="button button-primary"
                    style={{ minHeight: 48 }}
                    onClick={() => onFix(entry.entity, entry.localId)}
                  >
                    {t({ id: 'parked.fix', defaultMessage: 'Fix' })}
                  </button>
                ) : null}
                <button
                  type="button"
                  className="button"
                  style={{ minHeight: 48 }}
                  onClick={() => void askDiscard(item)}
                >
                  {t({ id: 'parked.discard', defaultMessage: 'Discard' })}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <Dialog
        open={resending !== null}
        title={t({ id: 'parked.sendAgainQuestion', defaultMessage: 'Send this record again?' })}
        onClose={() => setResending(null)}
      >
        {resending ? (
          <>
            <p>
              {t(
                {
                  id: 'parked.mayBeOnServer',
                  defaultMessage:
                    '<b>{what}</b> may already be on the server: the server could not tell whether the first try arrived.',
                },
                {
                  what: describe(resending.entry, resending.record?.data),
                  b: (text) => <strong key="what">{text}</strong>,
                },
              )}
            </p>
            <p>
              {t({
                id: 'parked.secondCopy',
                defaultMessage:
                  'If the first one did reach the server, sending it again creates a second copy there. Check the server’s records first.',
              })}
            </p>
            <Choice
              error={error}
              busy={busy}
              keep={t({ id: 'parked.keepWaiting', defaultMessage: 'Keep it waiting' })}
              onKeep={() => setResending(null)}
              act={t({ id: 'parked.sendAgain', defaultMessage: 'Send again' })}
              actClass="button-primary"
              onAct={confirmSendAgain}
            />
          </>
        ) : null}
      </Dialog>
      <Dialog
        open={confirming !== null}
        title={t({ id: 'parked.discardQuestion', defaultMessage: 'Discard this change?' })}
        onClose={() => setConfirming(null)}
      >
        {confirming ? (
          <>
            <p>
              {t(
                {
                  id: 'parked.willBeRemoved',
                  defaultMessage: '<b>{what}</b> will be removed from this tablet and never sent.',
                },
                {
                  what: describe(confirming.item.entry, confirming.item.record?.data),
                  b: (text) => <strong key="what">{text}</strong>,
                },
              )}
            </p>
            {confirming.dependents.length > 0 ? (
              <>
                <p>
                  {t(
                    {
                      id: 'parked.dependents',
                      defaultMessage:
                        '{n, plural, one {This change depends on it and will be discarded too:} other {These # changes depend on it and will be discarded too:}}',
                    },
                    { n: confirming.dependents.length },
                  )}
                </p>
                <ul
                  aria-label={t({
                    id: 'parked.discardedWith',
                    defaultMessage: 'Changes discarded with it',
                  })}
                >
                  {confirming.dependents.map((d) => (
                    <li key={d.entry.id}>{d.label}</li>
                  ))}
                </ul>
              </>
            ) : (
              <p>
                {t({ id: 'parked.noDependents', defaultMessage: 'No other change depends on it.' })}
              </p>
            )}
            <Choice
              error={error}
              busy={busy}
              keep={t({ id: 'collectionDetail.keep', defaultMessage: 'Keep it' })}
              onKeep={() => setConfirming(null)}
              act={
                confirming.dependents.length > 0
                  ? t(
                      { id: 'parked.discardAll', defaultMessage: 'Discard all {n}' },
                      { n: confirming.dependents.length + 1 },
                    )
                  : t({ id: 'parked.discard', defaultMessage: 'Discard' })
              }
              actClass="button-danger"
              onAct={confirmDiscard}
            />
          </>
        ) : null}
      </Dialog>
    </section>
  );
}
