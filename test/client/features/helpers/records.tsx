import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import type { Entity } from '../../../../src/shared';
import type { TraplineDb } from '../../../../src/client/db/database';
import { DbContext } from '../../../../src/client/db/db-context';
import { recordTable } from '../../../../src/client/db/record-tables';
import { makeDb } from '../../db/factories';
import { LOOKUPS } from '../../lookups-fixture';

/** A fresh tablet database with the lookups cached, as after sign-in. */
export async function tabletDb(): Promise<TraplineDb> {
  const db = makeDb();
  await db.lookups.put({ key: 'lookups', etag: null, document: LOOKUPS, storedAt: Date.now() });
  return db;
}

/** What the sync engine does after a 422: parks the record's entry and keeps the server's words. */
export async function parkRefused(
  db: TraplineDb,
  entity: Entity,
  localId: string,
  fields: { path: string; message: string }[],
): Promise<string> {
  const entry = (await db.outbox.where('localId').equals(localId).first())!;
  const problem = { code: 'validation_failed', message: 'The record has invalid fields', fields };
  await db.outbox.update(entry.id, {
    frozen: true,
    state: 'parked',
    lastError: { status: 422, reason: 'rejected', body: problem, at: Date.now() },
  });
  await recordTable(db, entity).update(localId, { syncState: 'failed', problem });
  return entry.id;
}

/** Renders a screen over a real (fake-indexeddb) database at a browser address. */
export function renderScreen(db: TraplineDb, ui: ReactElement, at = '/') {
  history.replaceState(null, '', at);
  render(<DbContext.Provider value={db}>{ui}</DbContext.Provider>);
  return userEvent.setup();
}

/**
 * A site as the service lists it (what a pull stores): Putah Creek N, server id 501, unless
 * `over` replaces or adds fields.
 */
export function pulledSite<T extends Record<string, unknown>>(over: T = {} as T) {
  return {
    id: 501,
    code: '104233',
    name: 'Putah Creek N',
    coordinate_precision: 1,
    shape: { type: 'Point', coordinates: [-121.49, 38.58] },
    agency: 1,
    updated: '2026-07-01T10:00:00.000Z',
    ...over,
  };
}
