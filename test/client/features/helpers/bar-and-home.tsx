import { render, screen } from '@testing-library/react';
import type { TraplineDb } from '../../../../src/client/db/database';
import { HomeScreen, homeSyncCounts } from '../../../../src/client/features/home/home-screen';
import {
  SyncEngineProvider,
  SyncStatusBar,
  useSyncStatusOf,
} from '../../../../src/client/features/sync-status';
import type { SyncEngine } from '../../../../src/client/sync';
import { renderScreen } from './records';

/** Home fed by the engine's live counts, as the signed-in app shows it (HomeRoute). */
function LiveHome() {
  const status = useSyncStatusOf(homeSyncCounts);
  const online = useSyncStatusOf((s) => s.online);
  return <HomeScreen userName="Sam" status={status} online={online} />;
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
