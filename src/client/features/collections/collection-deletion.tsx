import type { CollectionRow } from '../../db/database';
import { useI18n } from '../../lib/i18n';
import { loadIdentity } from '../../lib/identity';
import { Dialog } from '../../ui/dialog';
import { mayChangeCollection } from './may-change-collection';

/**
 * Why this person may not delete the collection (only managers delete what the server has,
 * contract §7), whom to ask, and, while its site may still change, the way out of a wrong site.
 */
export function WhyNotDeletable({ collection }: { collection: CollectionRow }) {
  const t = useI18n().formatMessage;
  const agency = loadIdentity()?.agency.name;
  return (
    <p className="muted">
      <span>
        {collection.serverId === null
          ? t({
              id: 'collectionDetail.maybeOnServer',
              defaultMessage:
                'The tablet has tried to send it, so it may already be on the server, where only a manager can delete it.',
            })
          : t({
              id: 'records.onlyManagerDeletes',
              defaultMessage: 'Only a manager can delete a record that is on the server.',
            })}
      </span>{' '}
      <span>
        {agency
          ? t(
              {
                id: 'collectionDetail.askManagerOf',
                defaultMessage: 'To have it deleted, ask a manager of {agency}.',
              },
              { agency },
            )
          : t({
              id: 'collectionDetail.askManager',
              defaultMessage: 'To have it deleted, ask a manager of your agency.',
            })}
        {mayChangeCollection(collection)
          ? ` ${t({
              id: 'collectionDetail.wrongSite',
              defaultMessage: 'Entered at the wrong site? Edit the collection and change its site.',
            })}`
          : ''}
      </span>
    </p>
  );
}

/** Asks before a collection is deleted, saying what goes with it. */
export function DeleteCollectionDialog({
  open,
  collection,
  onKeep,
  onDelete,
}: {
  open: boolean;
  collection: CollectionRow;
  onKeep: () => void;
  onDelete: () => void;
}) {
  const t = useI18n().formatMessage;
  return (
    <Dialog
      open={open}
      title={t({
        id: 'collectionDetail.deleteQuestion',
        defaultMessage: 'Delete this collection?',
      })}
      onClose={onKeep}
    >
      <p>
        {collection.serverId === null
          ? t({
              id: 'collectionDetail.deleteUnsent',
              defaultMessage:
                'It has not been sent: its counts leave this tablet and are never sent.',
            })
          : t({
              id: 'collectionDetail.deleteSent',
              defaultMessage:
                'Its counts, pools and test results go from the server too once the deletion is sent.',
            })}
      </p>
      <div className="row wrap">
        <button type="button" className="button button-primary" autoFocus onClick={onKeep}>
          {t({ id: 'collectionDetail.keep', defaultMessage: 'Keep it' })}
        </button>
        <button type="button" className="button button-danger" onClick={onDelete}>
          {t({ id: 'collectionDetail.delete', defaultMessage: 'Delete collection' })}
        </button>
      </div>
    </Dialog>
  );
}
