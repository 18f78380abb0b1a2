import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import { createSiteByMap, navigate, signIn, visible } from './harness/field-actions';
import { recordsApi, type RecordsApi } from './harness/records-api';
import { startStack, type Stack } from './harness/stack';
import { outbox, outboxEmpties, PATHS } from './harness/sync-checks';

// The technician renames a site offline while someone renames it on the server: the app does
// not overwrite the other change unseen; it asks which name to keep, and sends that choice.
describe('sync: an edit that crosses a change made on the server', () => {
  let stack: Stack;
  let app: AppBrowser;
  let api: RecordsApi;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchApp(stack.appUrl);
    api = await recordsApi(stack.recordsUrl, stack.password);
    await signIn(app.page, { username: 'demo-tech', password: stack.password });
    await app.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('asks which name to keep and sends the chosen one', async () => {
    const page = app.page;
    await createSiteByMap(page, { code: '748001', name: 'First Name Pond' });
    const sitePath = new URL(page.url()).pathname;
    await outboxEmpties(page);
    const [site] = (await api.sites('query[code]=748001')).rows;

    await app.context.setOffline(true);
    await page.goto(sitePath);
    await page.getByRole('link', { name: 'Edit site' }).click();
    const form = page.getByRole('form', { name: 'Site' });
    await visible(form);
    await form.getByLabel('Site name').fill('Tablet Name Pond');
    await form.getByRole('button', { name: 'Save site' }).click();
    await visible(page.getByRole('heading', { name: '748001 Tablet Name Pond' }));

    const theirs = await api.put(`${PATHS.site}/${String(site.id)}`, { name: 'Office Name Pond' });
    expect(theirs.status).toBe(200);

    await app.context.setOffline(false);
    await expect
      .poll(async () => (await outbox(page)).map((e) => `${e.entity}:${e.op}:${e.state}`), {
        timeout: 30_000,
      })
      .toEqual(['site:update:conflict']);
    // Not overwritten while the question is open.
    const [meanwhile] = (await api.sites('query[code]=748001')).rows;
    expect(meanwhile.name).toBe('Office Name Pond');

    await navigate(page, 'Sync');
    await page.getByRole('button', { name: 'Choose values' }).click();
    const resolver = page.getByRole('form', { name: 'Resolve conflict' });
    await visible(resolver);
    const name = resolver.getByRole('group', { name: 'Name' });
    await visible(name.getByText('Theirs (server): Office Name Pond'));
    await name.getByRole('radio', { name: 'Mine: Tablet Name Pond' }).check();
    await resolver.getByRole('button', { name: 'Keep these values' }).click();

    await outboxEmpties(page);
    const [after] = (await api.sites('query[code]=748001')).rows;
    expect(after.name).toBe('Tablet Name Pond');
    await page.goto(sitePath);
    await visible(page.getByRole('heading', { name: '748001 Tablet Name Pond' }));
  });
});
