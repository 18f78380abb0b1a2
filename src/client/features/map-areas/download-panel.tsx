import { useTemplateRefused } from '../../lib/refused-sources';
import { useI18n } from '../../lib/i18n';
import { bytesIn } from './format-bytes';
import {
  cancelJob,
  dismissJob,
  pauseJob,
  resumeJob,
  retryFailedTiles,
  type Job,
} from './download-job';

/** The download under way: a progress bar with counts, pause/resume, cancel, retry failed tiles. */
export function DownloadPanel({ job }: { job: Job }) {
  const { state, done, total, failed, bytes, problem } = job.progress;
  // Tiles this page's security policy refused failed for that reason, whatever the signal.
  const refused = useTemplateRefused(job.area.tileUrl);
  const intl = useI18n();
  const t = intl.formatMessage;
  const name = job.area.name;
  const title =
    state === 'finished'
      ? failed > 0
        ? t(
            {
              id: 'mapAreas.failedTitle',
              defaultMessage: '{name}: {failed, plural, one {# tile} other {# tiles}} failed',
            },
            { name, failed },
          )
        : t({ id: 'mapAreas.savedTitle', defaultMessage: '{name} is saved' }, { name })
      : state === 'paused'
        ? t({ id: 'mapAreas.pausedTitle', defaultMessage: '{name}: paused' }, { name })
        : t(
            {
              id: 'mapAreas.runningTitle',
              defaultMessage:
                '{kind, select, new {Downloading} continue {Continuing} other {Refreshing}} {name}',
            },
            { kind: job.kind, name },
          );
  return (
    <section className="card area-download" aria-labelledby="area-download-title">
      <h2 id="area-download-title">{title}</h2>
      <progress
        className="area-progress"
        max={Math.max(total, 1)}
        value={done}
        aria-label={t({ id: 'mapAreas.progress', defaultMessage: 'Download progress' })}
      />
      <p role="status" data-testid="download-status">
        {t(
          {
            id: 'mapAreas.status',
            defaultMessage:
              '{done, number} of {total, plural, one {# tile} other {# tiles}}, {size}{failed, plural, =0 {} other {; # failed}}',
          },
          { done, total, size: bytesIn(intl, bytes), failed },
        )}
      </p>
      {problem ? (
        <p className="field-error" role="alert">
          {problem === 'Storage is full: delete a saved area or choose a smaller one.'
            ? t({
                id: 'mapAreas.storageFull',
                defaultMessage: 'Storage is full: delete a saved area or choose a smaller one.',
              })
            : problem}
        </p>
      ) : null}
      {state === 'finished' && failed > 0 && refused ? (
        <p>
          {t({
            id: 'mapAreas.refused',
            defaultMessage:
              'This tablet’s copy of Trapline refuses this map’s tile server, so retrying will not help: reload Trapline while online to take the office’s map settings, then retry.',
          })}
        </p>
      ) : state === 'finished' && failed > 0 ? (
        <p>
          {t({
            id: 'mapAreas.someFailed',
            defaultMessage:
              'The tile server did not answer for some tiles (no signal, or it is busy). The map shows the rest; retry when the signal is better.',
          })}
        </p>
      ) : null}
      <div className="row">
        {state === 'running' ? (
          <button type="button" className="button" onClick={pauseJob}>
            {t({ id: 'mapAreas.pause', defaultMessage: 'Pause' })}
          </button>
        ) : null}
        {state === 'paused' ? (
          <button type="button" className="button button-primary" onClick={resumeJob}>
            {t({ id: 'mapAreas.resume', defaultMessage: 'Resume' })}
          </button>
        ) : null}
        {state === 'finished' && failed > 0 ? (
          <button type="button" className="button button-primary" onClick={retryFailedTiles}>
            {t({ id: 'mapAreas.retry', defaultMessage: 'Retry failed tiles' })}
          </button>
        ) : null}
        {state === 'running' || state === 'paused' ? (
          <button type="button" className="button button-danger" onClick={cancelJob}>
            {job.kind === 'new'
              ? t({ id: 'mapAreas.cancelDelete', defaultMessage: 'Cancel and delete' })
              : t({ id: 'mapAreas.stop', defaultMessage: 'Stop' })}
          </button>
        ) : null}
        {state === 'finished' ? (
          <button type="button" className="button button-quiet" onClick={dismissJob}>
            {t({ id: 'mapAreas.done', defaultMessage: 'Done' })}
          </button>
        ) : null}
      </div>
    </section>
  );
}
