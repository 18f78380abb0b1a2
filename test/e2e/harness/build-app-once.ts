import { ensureAppBuilt } from './build-app';

/**
 * Vitest global setup of the e2e project: the app is built once, before any e2e file starts.
 * The files run side by side, and two of them finding dist/ stale at once would both build
 * into it while the other's stack serves it.
 */
export default async function setup(): Promise<void> {
  await ensureAppBuilt();
}
