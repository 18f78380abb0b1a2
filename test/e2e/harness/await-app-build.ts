import { beforeEach } from 'vitest';
import { appBuildSettled } from '../../helpers/app-build-status';
import { whatBrowsersSaid } from './browser';

/**
 * Setup file of the e2e project: before a browser file starts, the run's app build (started
 * beside the first files by build-app-once.ts) has written dist/. Waited for here and not in the
 * files' `beforeAll` (`ensureAppBuilt`), where the wait counted against the hook's time limit:
 * on a machine at load 60 the build took 4.5 min and the first browser files' hooks timed out
 * with their tests skipped. A setup file has no time limit; a build that fails fails each browser
 * file with its output.
 */
await appBuildSettled();

// A test that fails prints what its browsers' pages reported until then: an error the app caught
// in an error boundary (which re-draws a part afresh) is otherwise seen by no check, and a check
// of page errors at a test's end is never reached by a step that failed before it.
beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    const said = whatBrowsersSaid();
    if (said) console.error(said);
  });
});
