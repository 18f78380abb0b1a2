import { render, screen } from '@testing-library/react';
import type { TraplineDb } from '../../../../src/client/db/database';
import { HomeScreen } from '../../../../src/client/features/home/home-screen';
import {
  SyncEngineProvider,
  SyncStatusBar,
  useSyncStatus,
} from '../../../../src/client/features/sync-status';
import type { SyncEngine } from '../../../../src/client/sync';
import { renderScreen } from './records';

/** Home fed by the engine's live status, as the signed-in app shows it. */
function LiveHome() {
  const status = useSyncStatus();
  return <HomeScreen userName="Sam" status={status} online={status.online} />;
}

/** The sync bar and Home on one screen, both following `engine`, as the app opens. */
export function renderBarAndHome(db: TraplineDb, engine: SyncEngine) {
  return renderScreen(
    db,
    <SyncEngineProvider engine={engine}>
      <SyncStatusBar />
      <LiveHome />
    </SyncEngineProvider>,
  );
}

/** The sync bar alone, following `engine`: returns its region. */
export function renderBar(engine: SyncEngine): HTMLElement {
  render(
    <SyncEngineProvider engine={engine}>
      <SyncStatusBar />
    </SyncEngineProvider>,
  );
  return screen.getByRole('region', { name: 'Sync status' });
}
