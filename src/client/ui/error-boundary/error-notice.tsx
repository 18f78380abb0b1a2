import { useEffect, useId, useRef, useState } from 'react';

export type ErrorKind = 'render' | 'chunk';

/** How many changes wait to be sent, or null when the tablet's storage could not be read. */
export type CountUnsent = () => Promise<number | null>;

function unsentWords(count: number): string {
  if (count === 0) return 'Nothing is waiting to be sent.';
  if (count === 1) return '1 unsent change is kept on this tablet and will be sent as usual.';
  return `${count} unsent changes are kept on this tablet and will be sent as usual.`;
}

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
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="error-notice" role="alert" aria-labelledby={headingId}>
      <h1 id={headingId} ref={heading} tabIndex={-1}>
        {kind === 'chunk'
          ? 'This screen could not load'
          : 'Something went wrong showing this screen'}
      </h1>
      <p>
        {kind === 'chunk'
          ? 'The app could not load this screen: the tablet may be offline, or the app is being updated. Please reload when you are back in signal.'
          : 'Reload the app to try again, or go to the start.'}
      </p>
      <p className="error-notice-safe">
        <strong>What is saved on this tablet is safe.</strong>{' '}
        {count === null ? null : <span>{unsentWords(count)}</span>}
      </p>
      <div className="error-notice-actions">
        <button type="button" className="button button-primary" onClick={onReload}>
          Reload
        </button>
        <button type="button" className="button" onClick={onGoToStart}>
          Go to start
        </button>
      </div>
    </section>
  );
}

/** Shown while the automatic reload after a failed chunk is under way. */
export function ReloadingNotice({ onReload }: { onReload: () => void }) {
  return (
    <section className="error-notice" role="status">
      <p>Loading the latest version of the app…</p>
      <div className="error-notice-actions">
        <button type="button" className="button" onClick={onReload}>
          Reload
        </button>
      </div>
    </section>
  );
}

/** A part of a screen (a map) that failed: the rest of the screen, and any typing, stay. */
export function PartErrorNotice({ kind, what }: { kind: ErrorKind | 'reloading'; what: string }) {
  return (
    <div className="error-part" role={kind === 'reloading' ? 'status' : 'alert'}>
      {kind === 'reloading'
        ? 'Loading the latest version of the app…'
        : kind === 'chunk'
          ? `The ${what} could not load: the tablet may be offline, or the app is being updated. The rest of this screen works; reload when you are back in signal.`
          : `The ${what} could not be shown. The rest of this screen works.`}
    </div>
  );
}
