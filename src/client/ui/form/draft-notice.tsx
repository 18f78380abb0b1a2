import { dateIn, useI18n } from '../../lib/i18n';
import { Banner } from '../banner';
import type { FormDraft } from './use-form-draft';

/**
 * Says that the form holds a restored draft, never silently: when it was typed, whether the
 * record changed since, and a way back to the saved values.
 */
export function DraftNotice({ draft }: { draft: FormDraft }) {
  const intl = useI18n();
  const t = intl.formatMessage;
  if (draft.discarded && draft.restoredAt === null) {
    return (
      <Banner
        tone="info"
        actions={
          <button type="button" className="button" onClick={draft.undoDiscard}>
            {t({ id: 'draft.undo', defaultMessage: 'Undo' })}
          </button>
        }
      >
        <p>{t({ id: 'draft.discarded', defaultMessage: 'Draft discarded.' })}</p>
      </Banner>
    );
  }
  if (draft.restoredAt === null) return null;
  return (
    <Banner
      tone={draft.changedSince ? 'warn' : 'info'}
      actions={
        <button type="button" className="button" onClick={draft.discard}>
          {t({ id: 'draft.discard', defaultMessage: 'Discard draft' })}
        </button>
      }
    >
      <p>
        {t(
          {
            id: 'draft.restored',
            defaultMessage: 'Restored what you typed on {when} before the app closed.',
          },
          { when: dateIn(intl, new Date(draft.restoredAt).toISOString()) },
        )}
      </p>
      {draft.changedSince ? (
        <p>
          {t({
            id: 'draft.changedSince',
            defaultMessage:
              'This record changed on this tablet since (a sync brought a newer version): the fields you did not type in show it. Check before saving.',
          })}
        </p>
      ) : null}
    </Banner>
  );
}
