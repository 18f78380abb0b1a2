import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useState } from 'react';
import type { PhotoEntity } from '#shared/schemas/attachment';
import { useDb } from '../../db/db-context';
import type { PhotoRow } from '../../db/photo-rows';
import { useI18n } from '../../lib/i18n';
import { Banner } from '../../ui/banner';
import { addPhotos, type AddPhotoProblem } from './add-photos';
import './photos.css';

/**
 * The photos of a record: an "Add photo" button (the camera, or files; several at once) and the
 * photos as thumbnails, each with where its upload stands. Works offline: a photo is shown as
 * soon as it is stored on the tablet.
 */
export function PhotoStrip({
  entity,
  recordLocalId,
}: {
  entity: PhotoEntity;
  recordLocalId: string;
}) {
  const db = useDb();
  const intl = useI18n();
  const t = intl.formatMessage;
  const inputId = useId();
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<AddPhotoProblem[]>([]);
  const photos = useLiveQuery(
    () => db.photos.where('recordLocalId').equals(recordLocalId).sortBy('createdAt'),
    [db, recordLocalId],
  );

  const onFiles = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setBusy(true);
    try {
      setProblems(await addPhotos(db, { entity, localId: recordLocalId }, [...files]));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      className="screen photos"
      aria-label={t({ id: 'photos.heading', defaultMessage: 'Photos' })}
    >
      <div className="row wrap photos-head">
        <h2>{t({ id: 'photos.heading', defaultMessage: 'Photos' })}</h2>
        {/*
          A label styled as a button, with the file input laid over it, transparent: a tap lands
          on the input itself, which is as large as the button (a touch target of 48 px), and
          keyboard focus shows on the button.
        */}
        <span className="photos-add-wrap">
          <input
            id={inputId}
            className="photos-input"
            type="file"
            accept="image/*"
            capture="environment"
            multiple
            disabled={busy}
            onChange={(e) => {
              void onFiles(e.currentTarget.files);
              e.currentTarget.value = '';
            }}
          />
          <label htmlFor={inputId} className="button photos-add" aria-disabled={busy}>
            {busy
              ? t({ id: 'photos.adding', defaultMessage: 'Adding…' })
              : t({ id: 'photos.add', defaultMessage: 'Add photo' })}
          </label>
        </span>
      </div>
      {problems.map((p, i) => (
        <Banner key={i} tone="warn">
          {p.kind === 'no-space'
            ? t(
                {
                  id: 'photos.noSpace',
                  defaultMessage:
                    '{filename} was not added: this tablet is almost out of storage ({free} free). Send waiting changes and photos, then remove old map areas or other apps’ files.',
                },
                {
                  filename: p.filename,
                  free:
                    p.freeBytes === null
                      ? '?'
                      : `${Math.max(0, Math.round(p.freeBytes / (1024 * 1024)))} MB`,
                },
              )
            : t(
                {
                  id: 'photos.unreadable',
                  defaultMessage:
                    '{filename} was not added: it is not a photo this tablet can read. Take the photo again or pick a JPEG, PNG or WebP.',
                },
                { filename: p.filename },
              )}
        </Banner>
      ))}
      {photos && photos.length > 0 ? (
        <ul className="photo-strip">
          {photos.map((p) => (
            <PhotoThumb key={p.id} photo={p} />
          ))}
        </ul>
      ) : (
        <p className="muted">{t({ id: 'photos.none', defaultMessage: 'No photos yet.' })}</p>
      )}
    </section>
  );
}

function PhotoThumb({ photo }: { photo: PhotoRow }) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const url = useThumbUrl(photo.thumb);
  const state =
    photo.state === 'sent'
      ? t({ id: 'photos.state.sent', defaultMessage: 'Sent' })
      : photo.state === 'parked'
        ? t({ id: 'photos.state.parked', defaultMessage: 'Not accepted' })
        : t({ id: 'photos.state.waiting', defaultMessage: 'Waiting to send' });
  return (
    <li className={`photo-thumb photo-${photo.state}`}>
      <img
        src={url ?? undefined}
        alt={t(
          { id: 'photos.alt', defaultMessage: 'Photo {filename}' },
          { filename: photo.filename },
        )}
        width={96}
        height={96}
      />
      <span className="photo-state">{state}</span>
      {photo.problem ? <span className="photo-problem">{photo.problem}</span> : null}
    </li>
  );
}

/**
 * The thumbnail as a data: URL: the BFF's Content-Security-Policy lets images come from the app,
 * data: and map tile servers, not blob: URLs (a blob: allowance would serve no other screen).
 */
function useThumbUrl(thumb: Blob): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const reader = new FileReader();
    reader.onload = () => {
      if (live && typeof reader.result === 'string') setUrl(reader.result);
    };
    reader.readAsDataURL(thumb);
    return () => {
      live = false;
      reader.abort();
    };
  }, [thumb]);
  return url;
}
