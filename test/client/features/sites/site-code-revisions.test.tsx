import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../../src/client/db/database';
import { DbContext } from '../../../../src/client/db/db-context';
import { SiteFormScreen } from '../../../../src/client/features/sites/site-form-screen';
import { storePulledRows } from '../../../../src/client/sync/store-pulled-rows';
import { pulledSite, tabletDb } from '../helpers/records';

// Two revisions of one site: the same code, name and place, one after the other (the office
// closed the first and opened the second). The records service lets either be edited as long as
// the two periods do not overlap (contract §6, site-store siteUsingCode); the app's form must not
// refuse what the service takes, nor take what it refuses.

const SLOW = { timeout: 20_000 };

/** Putah Creek N, code 104233, from April 2020 to October 2024. */
const OLD = pulledSite({
  active_date: '2020-04-01T00:00:00.000Z',
  deactive_date: '2024-10-31T00:00:00.000Z',
  add_date: '2020-04-01T09:00:00.000Z',
});
/** Its look-alike later revision: same code, name and place, from April 2025, still open. */
const LATER = pulledSite({
  id: 502,
  active_date: '2025-04-01T00:00:00.000Z',
  add_date: '2025-04-01T09:00:00.000Z',
});
/** Another site of the agency, open since 2019. */
const SOUTH = pulledSite({
  id: 503,
  code: '104234',
  name: 'Putah Creek S',
  active_date: '2019-01-01T00:00:00.000Z',
  add_date: '2019-01-01T09:00:00.000Z',
});

async function tabletWith(rows: Record<string, unknown>[]) {
  const db = await tabletDb();
  await storePulledRows(db, Date.now(), 'site', rows);
  const local = async (id: number) =>
    (await db.sites.where('serverId').equals(id).first())!.localId;
  return { db, local };
}

function mount(db: TraplineDb, localId?: string) {
  history.replaceState(null, '', localId ? `/sites/${localId}/edit` : '/sites/new');
  render(
    <DbContext.Provider value={db}>
      <SiteFormScreen localId={localId} />
    </DbContext.Provider>,
  );
  return userEvent.setup();
}

async function retype(user: ReturnType<typeof userEvent.setup>, label: string, text: string) {
  const input = await screen.findByLabelText(label);
  await user.clear(input);
  await user.type(input, text);
}

/** The form was saved and left for the site's page (a refusal of its code is shown if not). */
async function savedTo(path: string) {
  await waitFor(() => {
    expect(screen.queryByText(/already used by/)?.textContent ?? null).toBeNull();
    expect(location.pathname).toBe(path);
  });
}

const entriesOf = (db: TraplineDb, localId: string) =>
  db.outbox.where('localId').equals(localId).toArray();

describe('site code shared by two revisions of a site', SLOW, () => {
  it('lets the data manager correct the old revision’s name', async () => {
    const { db, local } = await tabletWith([OLD, LATER, SOUTH]);
    const oldId = await local(501);
    const user = mount(db, oldId);
    await retype(user, 'Site name', 'Putah Creek North');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await savedTo(`/sites/${oldId}`);
    expect(await entriesOf(db, oldId)).toEqual([
      expect.objectContaining({ op: 'update', payload: { name: 'Putah Creek North' } }),
    ]);
    // The later revision is left as it was.
    expect(await entriesOf(db, await local(502))).toEqual([]);
  });

  it('lets the later revision be edited too', async () => {
    const { db, local } = await tabletWith([OLD, LATER, SOUTH]);
    const laterId = await local(502);
    const user = mount(db, laterId);
    await retype(user, 'Comments', 'Trap moved to the fence post');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await savedTo(`/sites/${laterId}`);
    expect(await entriesOf(db, laterId)).toHaveLength(1);
  });

  it('still refuses giving either revision the code of a site open during its period', async () => {
    const { db, local } = await tabletWith([OLD, LATER, SOUTH]);
    for (const id of [await local(501), await local(502)]) {
      const user = mount(db, id);
      await retype(user, 'Site code', '104234');
      await user.click(screen.getByRole('button', { name: 'Save site' }));
      expect(
        await screen.findByText(
          "Site code 104234 is already used by 'Putah Creek S' — pick another code",
        ),
      ).toBeInTheDocument();
      expect(await entriesOf(db, id)).toEqual([]);
      document.body.innerHTML = '';
    }
  });

  it('refuses the old revision a code whose site started while it was open', async () => {
    const since2023 = pulledSite({
      id: 504,
      code: '104235',
      name: 'Putah Creek N2',
      active_date: '2023-01-01T00:00:00.000Z',
      add_date: '2023-01-01T09:00:00.000Z',
    });
    const { db, local } = await tabletWith([OLD, LATER, since2023]);
    const oldId = await local(501);
    const user = mount(db, oldId);
    await retype(user, 'Site code', '104235');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    expect(
      await screen.findByText(
        "Site code 104235 is already used by 'Putah Creek N2' — pick another code",
      ),
    ).toBeInTheDocument();
    expect(await entriesOf(db, oldId)).toEqual([]);
  });

  it('lets a new site reuse the code of a site that has ended', async () => {
    const { db } = await tabletWith([OLD]);
    const user = mount(db);
    await retype(user, 'Site code', '104233');
    await user.type(screen.getByLabelText('Site name'), 'Putah Creek N');
    await user.type(screen.getByLabelText('Latitude'), '38.58');
    await user.type(screen.getByLabelText('Longitude'), '-121.49');
    await user.selectOptions(screen.getByLabelText('Coordinate precision'), '1');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(async () => {
      expect(screen.queryByText(/already used by/)?.textContent ?? null).toBeNull();
      expect(await db.sites.count()).toBe(2);
    });
  });

  it('still refuses a new site the code of a site still open', async () => {
    const { db } = await tabletWith([OLD, LATER]);
    const user = mount(db);
    await retype(user, 'Site code', '104233');
    await user.type(screen.getByLabelText('Site name'), 'Putah Creek N');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    expect(
      await screen.findByText(
        "Site code 104233 is already used by 'Putah Creek N' — pick another code",
      ),
    ).toBeInTheDocument();
    expect(await db.sites.count()).toBe(2);
  });
});
