import { useEffect, useId, useRef, useState } from 'react';
import { useI18n } from '../../lib/i18n';

export type ErrorKind = 'render' | 'chunk';

/** How many changes wait to be sent, or null when the tablet's storage could not be read. */
export type CountUnsent = () => Promise<number | null>;

/** The unsent count, read once when the notice opens (read only). */
function useUnsentCount(countUnsent: CountUnsent | undefined): number | null {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    if (!countUnsent) return;
    let live = true;
    countUnsent().then(
      (n) => {
        if (live) setCount(n);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [countUnsent]);
  return count;
}

/**
 * What a technician sees in place of a screen that failed: what happened in plain words, that
 * what is saved on the tablet is safe (with the unsent count when it can be read), Reload and
 * Go to start. Never the error's message or stack. Focus moves to the heading.
 */
export function ErrorNotice({
  kind,
  countUnsent,
  onReload,
  onGoToStart,
}: {
  kind: ErrorKind;
  countUnsent?: CountUnsent;
  onReload: () => void;
  onGoToStart: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const count = useUnsentCount(countUnsent);
  const intl = useI18n();
  const t = intl.formatMessage;
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="error-notice" role="alert" aria-labelledby={headingId}>
      <h1 id={headingId} ref={heading} tabIndex={-1}>
        {kind === 'chunk'
          ? t({ id: 'errorNotice.chunkTitle', defaultMessage: 'This screen could not load' })
          : t({
              id: 'errorNotice.renderTitle',
              defaultMessage: 'Something went wrong showing this screen',
            })}
      </h1>
      <p>
        {kind === 'chunk'
          ? t({
              id: 'errorNotice.chunkBody',
              defaultMessage:
                'The app could not load this screen: the tablet may be offline, or the app is being updated. Please reload when you are back in signal.',
            })
          : t({
              id: 'errorNotice.renderBody',
              defaultMessage: 'Reload the app to try again, or go to the start.',
            })}
      </p>
      <p className="error-notice-safe">
        <strong>
          {t({ id: 'errorNotice.safe', defaultMessage: 'What is saved on this tablet is safe.' })}
        </strong>{' '}
        {count === null ? null : (
          <span>
            {t(
              {
                id: 'errorNotice.unsent',
                defaultMessage:
                  '{count, plural, =0 {Nothing is waiting to be sent.} one {# unsent change is kept on this tablet and will be sent as usual.} other {# unsent changes are kept on this tablet and will be sent as usual.}}',
              },
              { count },
            )}
          </span>
        )}
      </p>
      <div className="error-notice-actions">
        <button type="button" className="button button-primary" onClick={onReload}>
          {t({ id: 'errorNotice.reload', defaultMessage: 'Reload' })}
        </button>
        <button type="button" className="button" onClick={onGoToStart}>
          {t({ id: 'errorNotice.goToStart', defaultMessage: 'Go to start' })}
        </button>
      </div>
    </section>
  );
}

/** Shown while the automatic reload after a failed chunk is under way. */
export function ReloadingNotice({ onReload }: { onReload: () => void }) {
  const intl = useI18n();
  return (
    <section className="error-notice" role="status">
      <p>
        {intl.formatMessage({
          id: 'errorNotice.loadingLatest',
          defaultMessage: 'Loading the latest version of the app…',
        })}
      </p>
      <div className="error-notice-actions">
        <button type="button" className="button" onClick={onReload}>
          {intl.formatMessage({ id: 'errorNotice.reload', defaultMessage: 'Reload' })}
        </button>
      </div>
    </section>
  );
}

/** A part of a screen (a map) that failed: the rest of the screen, and any typing, stay. */
export function PartErrorNotice({ kind, what }: { kind: ErrorKind | 'reloading'; what: string }) {
  const intl = useI18n();
  const t = intl.formatMessage;
  // `what` is a part's name in code ("map", "history"): said as the language names it.
  const part = t(
    {
      id: 'errorNotice.part',
      defaultMessage: '{what, select, map {map} history {history} other {{what}}}',
    },
    { what },
  );
  return (
    <div className="error-part" role={kind === 'reloading' ? 'status' : 'alert'}>
      {kind === 'reloading'
        ? t({
            id: 'errorNotice.loadingLatest',
            defaultMessage: 'Loading the latest version of the app…',
          })
        : kind === 'chunk'
          ? t(
              {
                id: 'errorNotice.partChunk',
                defaultMessage:
                  'The {part} could not load: the tablet may be offline, or the app is being updated. The rest of this screen works; reload when you are back in signal.',
              },
              { part },
            )
          : t(
              {
                id: 'errorNotice.partRender',
                defaultMessage: 'The {part} could not be shown. The rest of this screen works.',
              },
              { part },
            )}
    </div>
  );
}
