import { useState } from 'react';
import { useI18n } from '../../lib/i18n';
import { bytesIn } from './format-bytes';
import type { SavedArea } from './saved-areas';

type Props = {
  areas: SavedArea[];
  currentTileUrl: string;
  /** Refresh and continue need the tile server to allow bulk downloads, and no download running. */
  canDownload: boolean;
  onRefresh: (area: SavedArea) => void;
  onContinue: (area: SavedArea) => void;
  onDelete: (area: SavedArea) => Promise<void>;
};

/** Saved areas with size and date; refresh, continue or delete (deleting asks first). */
export function SavedAreasList({
  areas,
  currentTileUrl,
  canDownload,
  onRefresh,
  onContinue,
  onDelete,
}: Props) {
  const [asking, setAsking] = useState<string | null>(null);
  const intl = useI18n();
  const t = intl.formatMessage;
  if (areas.length === 0)
    return (
      <p className="muted">
        {t({ id: 'mapAreas.none', defaultMessage: 'No saved map areas yet on this tablet.' })}
      </p>
    );
  return (
    <ul
      className="list saved-areas"
      aria-label={t({ id: 'mapAreas.saved', defaultMessage: 'Saved map areas' })}
    >
      {areas.map((a) => (
        <li key={a.id} className="list-item saved-area">
          <div>
            <strong>{a.name}</strong>
            <div className="muted">
              {t(
                {
                  id: 'mapAreas.areaFacts',
                  defaultMessage:
                    'Zoom {min}–{max} · {tiles, plural, one {# tile} other {# tiles}} · {size} · saved {when}',
                },
                {
                  min: a.minZoom,
                  max: a.maxZoom,
                  tiles: a.tiles,
                  size: bytesIn(intl, a.bytes),
                  when: intl.formatDate(new Date(a.savedAt), {
                    dateStyle: 'medium',
                    timeStyle: 'short',
                  }),
                },
              )}
            </div>
            {!a.complete ? (
              <div className="tag">
                {t({ id: 'mapAreas.notComplete', defaultMessage: 'Not complete' })}
              </div>
            ) : null}
            {a.tileUrl !== currentTileUrl ? (
              <div className="tag">
                {t({
                  id: 'mapAreas.otherSource',
                  defaultMessage: 'From another map source: not shown on this map',
                })}
              </div>
            ) : null}
          </div>
          {asking === a.id ? (
            <div
              className="row"
              role="group"
              aria-label={t(
                { id: 'mapAreas.deleteQuestion', defaultMessage: 'Delete {name}?' },
                { name: a.name },
              )}
            >
              <span>
                {t(
                  {
                    id: 'mapAreas.deleteBody',
                    defaultMessage:
                      'Delete {name}? Its tiles are freed unless another saved area uses them.',
                  },
                  { name: a.name },
                )}
              </span>
              <button
                type="button"
                className="button button-danger"
                onClick={() => void onDelete(a).then(() => setAsking(null))}
              >
                {t({ id: 'mapAreas.deleteArea', defaultMessage: 'Delete area' })}
              </button>
              <button type="button" className="button" onClick={() => setAsking(null)}>
                {t({ id: 'mapAreas.keep', defaultMessage: 'Keep' })}
              </button>
            </div>
          ) : (
            <div className="row">
              {!a.complete ? (
                <button
                  type="button"
                  className="button button-primary"
                  disabled={!canDownload || a.tileUrl !== currentTileUrl}
                  aria-label={t(
                    { id: 'mapAreas.continueNamed', defaultMessage: 'Continue {name}' },
                    { name: a.name },
                  )}
                  onClick={() => onContinue(a)}
                >
                  {t({ id: 'mapAreas.continue', defaultMessage: 'Continue' })}
                </button>
              ) : null}
              <button
                type="button"
                className="button"
                disabled={!canDownload || a.tileUrl !== currentTileUrl}
                aria-label={t(
                  { id: 'mapAreas.refreshNamed', defaultMessage: 'Refresh {name}' },
                  { name: a.name },
                )}
                onClick={() => onRefresh(a)}
              >
                {t({ id: 'home.refresh', defaultMessage: 'Refresh' })}
              </button>
              <button
                type="button"
                className="button button-danger"
                aria-label={t(
                  { id: 'mapAreas.deleteNamed', defaultMessage: 'Delete {name}' },
                  { name: a.name },
                )}
                onClick={() => setAsking(a.id)}
              >
                {t({ id: 'mapAreas.delete', defaultMessage: 'Delete' })}
              </button>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
