import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import {
  createCollectionAtSite,
  createSiteByMap,
  navigate,
  signIn,
  visible,
} from './harness/field-actions';
import { recordsApi, type RecordsApi } from './harness/records-api';
import { startStack, type Stack } from './harness/stack';
import { outbox, outboxEmpties, PATHS, postsTo, refId } from './harness/sync-checks';

const CLASH_CODE = '743001';

// A site made offline with a code another technician took meanwhile: the server refuses it,
// the app parks it with the server's words, holds the collection made at it, sends what does
// not depend on it, and sends both once the technician picks another code.
describe('sync: a change the server refuses', () => {
  let stack: Stack;
  let app: AppBrowser;
  let api: RecordsApi;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchApp(stack.appUrl);
    api = await recordsApi(stack.recordsUrl, stack.password);
    await signIn(app.page, { username: 'demo-tech', password: stack.password });
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  const collectionsWithComment = async (comments: string) =>
    (await api.collections()).rows.filter((c) => c.comments === comments);

  it('parks the site with the server message, holds its collection, sends the unrelated one, then both after a fix', async () => {
    const page = app.page;
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // A site already on the server (made and synced earlier in the day).
    await createSiteByMap(page, { code: '743002', name: 'Known Ditch' });
    const knownSitePath = new URL(page.url()).pathname;
    await outboxEmpties(page);
    const [knownSite] = (await api.sites('query[code]=743002')).rows;

    await app.context.setOffline(true);
    await createSiteByMap(page, { code: CLASH_CODE, name: 'Clash Pond' });
    await createCollectionAtSite(
      page,
      [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 9 }],
      'At the clash site',
    );
    await page.goto(knownSitePath);
    await createCollectionAtSite(
      page,
      [{ species: 'Cx pipiens', sex: 'F-Mixed', count: 4 }],
      'Unrelated',
    );

    // Meanwhile another technician takes the code.
    const other = await api.post<{ id: number }>('/v1/site', {
      code: CLASH_CODE,
      name: 'Other Tech Pond',
      coordinate_precision: 1,
      shape: { type: 'Point', coordinates: [-121.5, 38.6] },
    });
    expect(other.status).toBe(201);
    const since = stack.records.requests.length;

    await app.context.setOffline(false);
    await expect
      .poll(async () => (await outbox(page)).map((e) => `${e.entity}:${e.state}`).sort(), {
        timeout: 30_000,
      })
      .toEqual(['collection:pending', 'site:parked']);

    // The unrelated collection reached the server; the held one was never sent.
    const unrelated = await collectionsWithComment('Unrelated');
    expect(unrelated).toHaveLength(1);
    expect(refId(unrelated[0].site)).toBe(Number(knownSite.id));
    expect(await collectionsWithComment('At the clash site')).toEqual([]);
    expect(postsTo(stack, PATHS.collection, since)).toBe(1);
    expect(postsTo(stack, PATHS.site, since)).toBe(1);

    // The status bar and the Sync screen say what is wrong, in the server's words.
    const status = page.getByRole('region', { name: 'Sync status' });
    await visible(status.getByText('1 needs attention'));
    await visible(status.getByText('1 waiting on a fix'));
    await navigate(page, 'Sync');
    const parked = page.getByRole('region', { name: 'Changes that need attention' });
    await visible(
      parked.getByText(
        `Site code ${CLASH_CODE} is already used by 'Other Tech Pond' — pick another code`,
      ),
    );

    // Fix opens the site form with the server's message beside the code field.
    await parked.getByRole('button', { name: 'Fix' }).click();
    const form = page.getByRole('form', { name: 'Site' });
    await visible(form);
    const code = form.getByLabel('Site code');
    await expect(code.getAttribute('aria-invalid')).resolves.toBe('true');
    await visible(form.getByRole('alert').getByText(/Already used by site \d+ 'Other Tech Pond'/));
    await code.fill('743003');
    await form.getByRole('button', { name: 'Save site' }).click();
    await visible(page.getByRole('heading', { name: '743003 Clash Pond' }));

    await outboxEmpties(page);
    const [fixed] = (await api.sites('query[code]=743003')).rows;
    expect(fixed).toMatchObject({ name: 'Clash Pond' });
    const held = await collectionsWithComment('At the clash site');
    expect(held).toHaveLength(1);
    expect(refId(held[0].site)).toBe(Number(fixed.id));
    // The other technician's site is untouched and there is exactly one of each.
    expect((await api.sites(`query[code]=${CLASH_CODE}`)).rows.map((s) => s.name)).toEqual([
      'Other Tech Pond',
    ]);
    expect(await collectionsWithComment('Unrelated')).toHaveLength(1);
    await navigate(page, 'Sync');
    await visible(page.getByText('Nothing needs your attention.'));
  });

  it('discarding a refused site first names the collection that goes with it, then sends neither', async () => {
    const page = app.page;
    await app.context.setOffline(true);
    await createSiteByMap(page, { code: '743011', name: 'Doomed Pond' });
    const sitePath = new URL(page.url()).pathname;
    await createCollectionAtSite(
      page,
      [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 2 }],
      'At the doomed site',
    );
    const taken = await api.createSite({
      code: '743011',
      name: 'Taken Again Pond',
      lat: 38.5,
      lon: -121.4,
    });
    expect(taken.status).toBe(201);
    const since = stack.records.requests.length;

    await app.context.setOffline(false);
    await expect
      .poll(async () => (await outbox(page)).map((e) => `${e.entity}:${e.state}`).sort(), {
        timeout: 30_000,
      })
      .toEqual(['collection:pending', 'site:parked']);
    await navigate(page, 'Sync');
    const parked = page.getByRole('region', { name: 'Changes that need attention' });
    await parked.getByRole('button', { name: 'Discard' }).click();

    // The dialog names the dependent collection; keeping it changes nothing.
    const dialog = page.getByRole('dialog', { name: 'Discard this change?' });
    await visible(dialog);
    const going = dialog.getByRole('list', { name: 'Changes discarded with it' });
    await expect(going.getByRole('listitem').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^New collection \d{4}-\d{2}-\d{2}$/),
    ]);
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await outbox(page)).length).toBe(2);

    await parked.getByRole('button', { name: 'Discard' }).click();
    await dialog.getByRole('button', { name: 'Discard all 2' }).click();
    await outboxEmpties(page);
    await visible(page.getByText('Nothing needs your attention.'));
    await page.goto(sitePath);
    await visible(page.getByRole('alert').getByText('This site is not on this tablet.'));

    // Neither was ever created upstream; the other technician's site stands alone.
    expect(await collectionsWithComment('At the doomed site')).toEqual([]);
    expect((await api.sites('query[code]=743011')).rows.map((s) => s.name)).toEqual([
      'Taken Again Pond',
    ]);
    expect(postsTo(stack, PATHS.collection, since)).toBe(0);
  });
});
