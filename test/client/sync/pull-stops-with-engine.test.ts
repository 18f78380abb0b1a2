import { describe, expect, it } from 'vitest';
import { sitePulls } from './helpers/fake-bff';
import { site } from './helpers/outbox-factory';
import { setupEngine } from './helpers/setup-engine';

/**
 * The app stops its engine when the technician signs out or another user's session takes the
 * tablet's cookie. A pull under way then asks for no further page: each would go out under
 * whoever is signed in by then, for a database that is no longer shown. (In the suite, a test's
 * app ending mid-pull sent its next page after the test and left the next one offline.)
 */
describe('a pull when the engine stops', () => {
  it('asks for no further page of the list', async () => {
    const { bff, engine } = setupEngine({ autoPull: true, pull: { pageSize: 10 } }, 20);
    // 30 pages of sites that look alike: one name, one place.
    for (let n = 1; n <= 300; n += 1) bff.seed('site', { ...site(n), name: 'Twin Slough' });
    engine.start();
    await expect.poll(() => sitePulls(bff).length, { timeout: 5_000 }).toBeGreaterThan(1);
    engine.stop();
    const askedBeforeStop = bff.requests.length;
    // The pages asked for before the stop are answered (20 ms each); nothing is asked after.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(bff.requests.length).toBe(askedBeforeStop);
    expect(sitePulls(bff).length).toBeLessThan(30);
  });
});
