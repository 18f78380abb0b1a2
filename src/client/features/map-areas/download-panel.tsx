import { useTemplateRefused } from '../../lib/refused-sources';
import { formatBytes } from './format-bytes';
import {
  cancelJob,
  dismissJob,
  pauseJob,
  resumeJob,
  retryFailedTiles,
  type Job,
} from './download-job';

const VERB = { new: 'Downloading', continue: 'Continuing', refresh: 'Refreshing' } as const;

/** The download under way: a progress bar with counts, pause/resume, cancel, retry failed tiles. */
export function DownloadPanel({ job }: { job: Job }) {
  const { state, done, total, failed, bytes, problem } = job.progress;
  // Tiles this page's security policy refused failed for that reason, whatever the signal.
  const refused = useTemplateRefused(job.area.tileUrl);
  const title =
    state === 'finished'
      ? failed > 0
        ? `${job.area.name}: ${failed.toLocaleString('en-US')} ${failed === 1 ? 'tile' : 'tiles'} failed`
        : `${job.area.name} is saved`
      : state === 'paused'
        ? `${job.area.name}: paused`
        : `${VERB[job.kind]} ${job.area.name}`;
  return (
    <section className="card area-download" aria-labelledby="area-download-title">
      <h2 id="area-download-title">{title}</h2>
      <progress
        className="area-progress"
        max={Math.max(total, 1)}
        value={done}
        aria-label="Download progress"
      />
      <p role="status" data-testid="download-status">
        {done.toLocaleString('en-US')} of {total.toLocaleString('en-US')} tiles,{' '}
        {formatBytes(bytes)}
        {failed > 0 ? `; ${failed.toLocaleString('en-US')} failed` : ''}
      </p>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {state === 'finished' && failed > 0 && refused ? (
        <p>
          This tablet’s copy of Trapline refuses this map’s tile server, so retrying will not help:
          reload Trapline while online to take the office’s map settings, then retry.
        </p>
      ) : state === 'finished' && failed > 0 ? (
        <p>
          The tile server did not answer for some tiles (no signal, or it is busy). The map shows
          the rest; retry when the signal is better.
        </p>
      ) : null}
      <div className="row">
        {state === 'running' ? (
          <button type="button" className="button" onClick={pauseJob}>
            Pause
          </button>
        ) : null}
        {state === 'paused' ? (
          <button type="button" className="button button-primary" onClick={resumeJob}>
            Resume
          </button>
        ) : null}
        {state === 'finished' && failed > 0 ? (
          <button type="button" className="button button-primary" onClick={retryFailedTiles}>
            Retry failed tiles
          </button>
        ) : null}
        {state === 'running' || state === 'paused' ? (
          <button type="button" className="button button-danger" onClick={cancelJob}>
            {job.kind === 'new' ? 'Cancel and delete' : 'Stop'}
          </button>
        ) : null}
        {state === 'finished' ? (
          <button type="button" className="button button-quiet" onClick={dismissJob}>
            Done
          </button>
        ) : null}
      </div>
    </section>
  );
}
