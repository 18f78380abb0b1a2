import { cleanup, render, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { onTestFinished } from 'vitest';
import { TraplineDb } from '../../../../src/client/db/database';
import { DbContext } from '../../../../src/client/db/db-context';
import type { DraftStore } from '../../../../src/client/lib/drafts/draft-keeper';
import { useDropDraftsWhenGone } from '../../../../src/client/ui/form/use-form-draft';

/**
 * The set-up of the tests that a saved record's typing never comes back as a draft
 * (draft-after-save, edit-draft-after-save): the screen mounted on the tablet's database, its
 * drafts, and the one queue every form's drafts go through, held busy or waited on.
 */

/** Mounts `ui` at `at` on the tablet's database; queries within what it rendered. */
export function mount(db: TraplineDb, ui: ReactElement, at: string) {
  history.replaceState(null, '', at);
  const view = render(<DbContext.Provider value={db}>{ui}</DbContext.Provider>);
  return within(view.container);
}

/** The drafts on the tablet. */
export async function drafts(db: TraplineDb) {
  return db.meta.where('key').startsWith('draft:').toArray();
}

/**
 * One draft operation in the queue all forms' drafts go through (another form's drafts dropped),
 * which calls `run` when its turn comes and lasts until what `run` returns settles.
 */
function QueuedOp({ run }: { run: () => Promise<unknown> }) {
  const store: DraftStore = {
    get: () => Promise.resolve(undefined),
    put: () => Promise.resolve(),
    delete: () => Promise.resolve(),
    where: () => ({
      startsWith: () => ({ first: () => Promise.resolve(undefined), delete: run }),
    }),
  };
  useDropDraftsWhenGone(true, store, 'elsewhere', null, 'elsewhere');
  return null;
}

/**
 * The tablet busy: the draft queue holds an operation that lasts until released, and at the
 * latest when the test ends (the queue is the module's, shared by the files of a worker).
 */
export function busyDraftQueue() {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  onTestFinished(() => release());
  render(<QueuedOp run={() => held} />);
  return { release };
}

/** Resolves once every draft operation queued before it has run. */
export function draftQueueDrained(): Promise<void> {
  return new Promise<void>((resolve) => {
    render(
      <QueuedOp
        run={() => {
          resolve();
          return Promise.resolve();
        }}
      />,
    );
  });
}

/**
 * The tab is killed once the record is on the tablet, before anything else reaches the database:
 * a reload opens the same database again.
 */
export async function killAndReopen(db: TraplineDb, release: () => void): Promise<TraplineDb> {
  db.close();
  release();
  cleanup();
  const reopened = new TraplineDb(db.name);
  await reopened.open();
  return reopened;
}
