import { useState } from 'react';
import type { Entity, OutboxEntry } from '../../../shared';
import { Dialog } from '../../ui/dialog';
import { DependentsNotConfirmedError, describeEntry, recordTable } from '../../sync';
import { useSyncEngine } from './sync-engine-context';
import { useAttentionEntries, type AttentionItem } from './use-attention-entries';

type Pending = { item: AttentionItem; dependents: { entry: OutboxEntry; label: string }[] };

/**
 * Every change the server refused, with its message. Fix opens the record's form (the app
 * decides how, through `onFix`); Discard asks first, in a dialog that names every change that
 * depends on it: those go too, or nothing goes. Conflicts are listed too when `onResolveConflict`
 * is given.
 */
export function ParkedEntries({
  onFix,
  onResolveConflict,
}: {
  onFix: (entity: Entity, localId: string) => void;
  onResolveConflict?: (entryId: string) => void;
}) {
  const engine = useSyncEngine();
  const items = useAttentionEntries(onResolveConflict ? ['parked', 'conflict'] : ['parked']);
  const [confirming, setConfirming] = useState<Pending | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const askDiscard = async (item: AttentionItem) => {
    setError(null);
    const dependents = await engine.dependentsOf(item.entry.id);
    const labelled = await Promise.all(
      dependents.map(async (entry) => {
        const record = await recordTable(engine.db, entry.entity).get(entry.localId);
        return { entry, label: describeEntry(entry, record?.data) };
      }),
    );
    setConfirming({ item, dependents: labelled });
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
        setError('More changes now depend on this one. Check the list again.');
      } else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  if (!items) return null;
  if (items.length === 0) return <p className="muted">Nothing needs your attention.</p>;

  return (
    <section aria-label="Changes that need attention">
      <ul className="list parked-entries">
        {items.map((item) => {
          const { entry, record } = item;
          const message =
            record?.problem?.message ??
            entry.lastError?.body?.message ??
            'The server refused this change.';
          const fields = record?.problem?.fields ?? entry.lastError?.body?.fields ?? [];
          return (
            <li key={entry.id} className="list-item parked-entry" data-state={entry.state}>
              <strong>{describeEntry(entry, record?.data)}</strong>
              <p role="note">{message}</p>
              {fields.length > 0 ? (
                <ul className="field-problems">
                  {fields.map((f) => (
                    <li key={f.path}>
                      {f.path}: {f.message}
                    </li>
                  ))}
                </ul>
              ) : null}
              <div className="row">
                {entry.state === 'conflict' && onResolveConflict ? (
                  <button
                    type="button"
                    className="button button-primary"
                    style={{ minHeight: 48 }}
                    onClick={() => onResolveConflict(entry.id)}
                  >
                    Choose values
                  </button>
                ) : (
                  <button
                    type="button"
                    className="button button-primary"
                    style={{ minHeight: 48 }}
                    onClick={() => onFix(entry.entity, entry.localId)}
                  >
                    Fix
                  </button>
                )}
                <button
                  type="button"
                  className="button"
                  style={{ minHeight: 48 }}
                  onClick={() => void askDiscard(item)}
                >
                  Discard
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <Dialog
        open={confirming !== null}
        title="Discard this change?"
        onClose={() => setConfirming(null)}
      >
        {confirming ? (
          <>
            <p>
              <strong>{describeEntry(confirming.item.entry, confirming.item.record?.data)}</strong>{' '}
              will be removed from this tablet and never sent.
            </p>
            {confirming.dependents.length > 0 ? (
              <>
                <p>
                  {confirming.dependents.length === 1
                    ? 'This change depends on it and will be discarded too:'
                    : `These ${confirming.dependents.length} changes depend on it and will be discarded too:`}
                </p>
                <ul aria-label="Changes discarded with it">
                  {confirming.dependents.map((d) => (
                    <li key={d.entry.id}>{d.label}</li>
                  ))}
                </ul>
              </>
            ) : (
              <p>No other change depends on it.</p>
            )}
            {error ? <p role="alert">{error}</p> : null}
            <div className="row">
              <button
                type="button"
                className="button"
                style={{ minHeight: 48 }}
                onClick={() => setConfirming(null)}
              >
                Keep it
              </button>
              <button
                type="button"
                className="button button-danger"
                style={{ minHeight: 48 }}
                disabled={busy}
                onClick={() => void confirmDiscard()}
              >
                {confirming.dependents.length > 0
                  ? `Discard all ${confirming.dependents.length + 1}`
                  : 'Discard'}
              </button>
            </div>
          </>
        ) : null}
      </Dialog>
    </section>
  );
}
