import { useSyncExternalStore } from 'react';
import { useI18n } from '../../lib/i18n';
import { pagePhotoUploadStatus, subscribePagePhotoUploads } from '../../sync/photo-uploads';

/**
 * The photo queue's own line in the sync bar (it never holds the records' counts up): how many
 * photos wait, the one being sent with its progress, and photos the server refused, in its words.
 */
export function PhotoUploadLine() {
  const status = useSyncExternalStore(
    subscribePagePhotoUploads,
    pagePhotoUploadStatus,
    pagePhotoUploadStatus,
  );
  const t = useI18n().formatMessage;
  if (status.pending === 0 && status.parked.length === 0) return null;
  const current = status.current && status.current.total > 0 ? status.current : null;
  const percent = current ? Math.floor((100 * current.sent) / current.total) : null;
  return (
    <div className="sync-photos" data-testid="photo-uploads">
      {status.pending > 0 ? (
        <p>
          {t(
            {
              id: 'photos.sync.pending',
              defaultMessage:
                '{n, plural, one {# photo to send} other {# photos to send}}{waiting, plural, =0 {} one { (# waits for its record to be sent)} other { (# wait for their records to be sent)}}',
            },
            { n: status.pending, waiting: status.waitingForRecord },
          )}
          {percent !== null
            ? ` · ${t({ id: 'photos.sync.sending', defaultMessage: 'sending one: {percent}%' }, { percent })}`
            : ''}
        </p>
      ) : null}
      {current ? (
        <progress
          className="sync-progress"
          value={current.sent}
          max={current.total}
          aria-label={t({ id: 'photos.sync.progress', defaultMessage: 'Photo upload' })}
          style={{ width: '100%', height: '0.5rem' }}
        />
      ) : null}
      {status.parked.map((p) => (
        <p key={p.id} className="sync-attention">
          {t(
            {
              id: 'photos.sync.parked',
              defaultMessage: 'Photo {filename} was not accepted: {message}',
            },
            { filename: p.filename, message: p.message },
          )}
        </p>
      ))}
    </div>
  );
}
