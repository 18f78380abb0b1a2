import { useState } from 'react';
import { formatBytes } from './format-bytes';
import type { SavedArea } from './saved-areas';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

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
  if (areas.length === 0) return <p className="muted">No saved map areas yet on this tablet.</p>;
  return (
    <ul className="list saved-areas" aria-label="Saved map areas">
      {areas.map((a) => (
        <li key={a.id} className="list-item saved-area">
          <div>
            <strong>{a.name}</strong>
            <div className="muted">
              Zoom {a.minZoom}–{a.maxZoom} · {a.tiles.toLocaleString('en-US')} tiles ·{' '}
              {formatBytes(a.bytes)} · saved {dateFormat.format(new Date(a.savedAt))}
            </div>
            {!a.complete ? <div className="tag">Not complete</div> : null}
            {a.tileUrl !== currentTileUrl ? (
              <div className="tag">From another map source: not shown on this map</div>
            ) : null}
          </div>
          {asking === a.id ? (
            <div className="row" role="group" aria-label={`Delete ${a.name}?`}>
              <span>Delete {a.name}? Its tiles are freed unless another saved area uses them.</span>
              <button
                type="button"
                className="button button-danger"
                onClick={() => void onDelete(a).then(() => setAsking(null))}
              >
                Delete area
              </button>
              <button type="button" className="button" onClick={() => setAsking(null)}>
                Keep
              </button>
            </div>
          ) : (
            <div className="row">
              {!a.complete ? (
                <button
                  type="button"
                  className="button button-primary"
                  disabled={!canDownload || a.tileUrl !== currentTileUrl}
                  aria-label={`Continue ${a.name}`}
                  onClick={() => onContinue(a)}
                >
                  Continue
                </button>
              ) : null}
              <button
                type="button"
                className="button"
                disabled={!canDownload || a.tileUrl !== currentTileUrl}
                aria-label={`Refresh ${a.name}`}
                onClick={() => onRefresh(a)}
              >
                Refresh
              </button>
              <button
                type="button"
                className="button button-danger"
                aria-label={`Delete ${a.name}`}
                onClick={() => setAsking(a.id)}
              >
                Delete
              </button>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
