import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { recordTable, serverFieldValue } from '../../sync';
import { useSyncEngine } from './sync-engine-context';
import { useI18n } from '../../lib/i18n';

const label = (field: string) => field.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** A value as the form shows it; null for none (said "(empty)" in the person's language). */
function show(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * Field by field, the user's value against the server's, for a change that met someone else's
 * change. Nothing is applied until every conflicting field has a choice.
 */
export function ConflictResolver({ entryId, onDone }: { entryId: string; onDone?: () => void }) {
  const engine = useSyncEngine();
  const data = useLiveQuery(async () => {
    const entry = await engine.db.outbox.get(entryId);
    if (!entry) return { entry: null, record: null };
    return {
      entry,
      record: (await recordTable(engine.db, entry.entity).get(entry.localId)) ?? null,
    };
  }, [engine, entryId]);
  const intl = useI18n();
  const t = intl.formatMessage;
  const shown = (value: unknown) =>
    show(value) ?? t({ id: 'conflict.empty', defaultMessage: '(empty)' });
  const [choices, setChoices] = useState<Record<string, 'mine' | 'theirs'>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!data) return null;
  const { entry, record } = data;
  if (!entry || entry.state !== 'conflict' || !record) {
    return (
      <p className="muted">
        {t({ id: 'conflict.none', defaultMessage: 'This change has no conflict to resolve.' })}
      </p>
    );
  }
  const fields =
    record.problem?.fields?.map((f) => f.path).filter((f) => f in entry.payload) ??
    Object.keys(entry.payload);
  const complete = fields.every((f) => choices[f]);

  const apply = async () => {
    setBusy(true);
    setError(null);
    try {
      await engine.resolveConflict(entryId, choices);
      onDone?.();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="conflict-resolver"
      aria-label={t({ id: 'conflict.name', defaultMessage: 'Resolve conflict' })}
      onSubmit={(e) => {
        e.preventDefault();
        void apply();
      }}
    >
      <p>
        {t({
          id: 'conflict.intro',
          defaultMessage:
            'Someone changed these fields on the server after you edited them. Choose the value to keep for each.',
        })}
      </p>
      {fields.map((field) => {
        const mine = entry.payload[field];
        const theirs = serverFieldValue(entry.entity, record.server, field);
        return (
          <fieldset key={field}>
            <legend>
              {/* The field's code names it in English; a language says the usual ones its way. */}
              {t(
                { id: 'conflict.field', defaultMessage: '{field, select, other {{label}}}' },
                { field: field.replace(/\W/g, '_'), label: label(field) },
              )}
            </legend>
            <label style={{ display: 'flex', alignItems: 'center', gap: '0.5em', minHeight: 48 }}>
              <input
                type="radio"
                name={`conflict-${field}`}
                checked={choices[field] === 'mine'}
                onChange={() => setChoices((c) => ({ ...c, [field]: 'mine' }))}
              />
              {t({ id: 'conflict.mine', defaultMessage: 'Mine: {value}' }, { value: shown(mine) })}
            </label>
            <label style={{ display: 'flex', alignItems: 'center', gap: '0.5em', minHeight: 48 }}>
              <input
                type="radio"
                name={`conflict-${field}`}
                checked={choices[field] === 'theirs'}
                onChange={() => setChoices((c) => ({ ...c, [field]: 'theirs' }))}
              />
              {t(
                { id: 'conflict.theirs', defaultMessage: 'Theirs (server): {value}' },
                { value: shown(theirs) },
              )}
            </label>
          </fieldset>
        );
      })}
      {error ? <p role="alert">{error}</p> : null}
      <button
        type="submit"
        className="button button-primary"
        style={{ minHeight: 48 }}
        disabled={!complete || busy}
      >
        {t({ id: 'conflict.keep', defaultMessage: 'Keep these values' })}
      </button>
    </form>
  );
}
