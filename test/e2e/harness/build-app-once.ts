import {
  appBuildSettled,
  clearAppBuildState,
  readAppBuildState,
  writeAppBuildState,
} from '../../helpers/app-build-status';
import { appIsStale, startViteBuild } from './build-app';

/**
 * Vitest global setup of the e2e project: the app is built once a run, started here and not
 * awaited. Vitest runs every project's global setup before the first test file of any project,
 * so a build awaited here held the whole run: on a clean clone the two cores sat with only the
 * type-check and lint beside it (a minute and more on a loaded machine) before the first test.
 * Now the other projects' files start at once and what serves dist/ waits for the build
 * (test/helpers/app-build-status.ts): the browser files in their setup file
 * (await-app-build.ts, outside their hooks' time limits), spawned `npm start`s in `spawnMain`. Only one build writes dist/: the files run side by side, and
 * two of them finding dist/ stale at once would each build into it while the other's stack serves
 * it.
 */
export default async function setup(): Promise<(() => void) | undefined> {
  // Another run of this checkout building dist/ right now: let it finish rather than write the
  // same folder twice (its failure is reported by that run; here the stale check decides).
  await appBuildSettled().catch(() => undefined);
  if (!appIsStale()) return undefined;
  const pid = process.pid;
  writeAppBuildState({ state: 'building', pid });
  const build = startViteBuild();
  let ended = false;
  build.done.then(
    () => ended || writeAppBuildState({ state: 'built', pid }),
    (err: unknown) =>
      ended ||
      writeAppBuildState({
        state: 'failed',
        pid,
        output: err instanceof Error ? err.message : String(err),
      }),
  );
  return () => {
    ended = true;
    build.stop();
    if (readAppBuildState()?.pid === pid) clearAppBuildState();
  };
}
