import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { useDb } from '../../db/db-context';
import { useI18n } from '../../lib/i18n';
import { useOnline } from '../../lib/use-online';
import { Banner } from '../../ui/banner';
import { deleteArea } from './delete-area';
import { DownloadPanel } from './download-panel';
import { cancelJob, startJob, useDownloadJob } from './download-job';
import { NewAreaForm } from './new-area-form';
import { SavedAreasList } from './saved-areas-list';
import { sitesExtent } from './sites-extent';
import { useStorageLeft } from './storage-left';
import { cachedTileSource, freshTileSource, tileHost } from './tile-source';
import { useSavedAreas } from './use-saved-areas';
import './map-areas.css';

/**
 * Offline map areas: download the map's tiles for an area and zoom range before going out, see
 * the saved areas, refresh or delete them. Offered only when the operator marked the tile
 * server as allowing bulk downloads (TILE_BULK_DOWNLOAD): the default OpenStreetMap server
 * forbids them.
 */
export function MapAreasScreen() {
  const db = useDb();
  const intl = useI18n();
  const t = intl.formatMessage;
  const online = useOnline();
  const [source, setSource] = useState(cachedTileSource);
  useEffect(() => {
    let live = true;
    void freshTileSource().then((s) => live && setSource(s));
    return () => {
      live = false;
    };
  }, []);
  const extent = useLiveQuery(() => sitesExtent(db), [db]);
  const areas = useSavedAreas();
  const job = useDownloadJob();
  const [storage, refreshStorage] = useStorageLeft();
  const [deleted, setDeleted] = useState<string | null>(null);
  const state = job?.progress.state;
  const busy = state === 'running' || state === 'paused';
  useEffect(() => {
    // The storage left changes as tiles land: read again when a download stops or ends.
    if (state !== 'running') refreshStorage();
  }, [state, refreshStorage]);

  const sorted = [...areas].sort((a, b) => b.savedAt.localeCompare(a.savedAt));
  return (
    <section className="screen map-areas" aria-labelledby="map-areas-title">
      <h1 id="map-areas-title">
        {t({ id: 'mapAreas.title', defaultMessage: 'Offline map areas' })}
      </h1>
      <p className="muted">
        {t({
          id: 'mapAreas.intro',
          defaultMessage:
            'Save the map of an area on this tablet before going out: the map draws it without signal.',
        })}
      </p>
      {job ? <DownloadPanel job={job} /> : null}
      <section aria-labelledby="new-area-title">
        <h2 id="new-area-title">
          {t({ id: 'mapAreas.download', defaultMessage: 'Download an area' })}
        </h2>
        {!source.bulkDownload ? (
          <Banner tone="info">
            {t(
              {
                id: 'mapAreas.notOffered',
                defaultMessage:
                  'Area download is not offered for this map: its tile server ({server}) does not allow bulk downloads. Places you have viewed recently stay on the map offline. Ask your office for a map server that allows area downloads.',
              },
              { server: tileHost(source.tileUrl) },
            )}
          </Banner>
        ) : !online ? (
          <Banner tone="warn">
            {t({
              id: 'mapAreas.offline',
              defaultMessage: 'The tablet is offline: connect to download a map area.',
            })}
          </Banner>
        ) : (
          <NewAreaForm
            tileUrl={source.tileUrl}
            extent={extent}
            storage={storage}
            busy={busy}
            onStart={(area) => void startJob(area, 'new')}
          />
        )}
      </section>
      <section aria-labelledby="saved-areas-title">
        <h2 id="saved-areas-title">
          {t({ id: 'mapAreas.saved', defaultMessage: 'Saved map areas' })}
        </h2>
        <SavedAreasList
          areas={sorted}
          currentTileUrl={source.tileUrl}
          canDownload={source.bulkDownload && online && !busy}
          onRefresh={(a) => void startJob(a, 'refresh')}
          onContinue={(a) => void startJob(a, 'continue')}
          onDelete={async (a) => {
            // The area being downloaded: its download stops first, or it would store tiles
            // again and list the area once more when it ends.
            if (busy && job?.area.id === a.id) await cancelJob();
            const freed = await deleteArea(a);
            setDeleted(
              t(
                {
                  id: 'mapAreas.deleted',
                  defaultMessage:
                    '{name} deleted: {freed, plural, one {# tile} other {# tiles}} freed{kept, select, yes { (the rest are kept for other saved areas).} other {.}}',
                },
                { name: a.name, freed, kept: freed < a.tiles ? 'yes' : 'no' },
              ),
            );
            refreshStorage();
          }}
        />
        {deleted ? <p role="status">{deleted}</p> : null}
      </section>
    </section>
  );
}
