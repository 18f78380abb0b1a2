import { formatDate } from '../../lib/dates';
import { Banner } from '../banner';
import type { FormDraft } from './use-form-draft';

/**
 * Says that the form holds a restored draft, never silently: when it was typed, whether the
 * record changed since, and a way back to the saved values.
 */
export function DraftNotice({ draft }: { draft: FormDraft }) {
  if (draft.discarded && draft.restoredAt === null) {
    return (
      <Banner
        tone="info"
        actions={
          <button type="button" className="button" onClick={draft.undoDiscard}>
            Undo
          </button>
        }
      >
        <p>Draft discarded.</p>
      </Banner>
    );
  }
  if (draft.restoredAt === null) return null;
  return (
    <Banner
      tone={draft.changedSince ? 'warn' : 'info'}
      actions={
        <button type="button" className="button" onClick={draft.discard}>
          Discard draft
        </button>
      }
    >
      <p>
        Restored what you typed on {formatDate(new Date(draft.restoredAt).toISOString())} before the
        app closed.
      </p>
      {draft.changedSince ? (
        <p>
          This record changed on this tablet since (a sync brought a newer version): the fields you
          did not type in show it. Check before saving.
        </p>
      ) : null}
    </Banner>
  );
}
