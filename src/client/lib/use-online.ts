import { useSyncExternalStore } from 'react';
import { connection } from './connection';

const subscribe = (onChange: () => void) => connection.subscribe(onChange);
const online = () => connection.online;

/**
 * Whether the app can reach the server: the app's one connection state (lib/connection), from
 * its own requests' outcomes and the browser's word when it says offline, never only
 * `navigator.onLine` (true on a hotspot with nothing behind it). Home, the sync bar, Reports,
 * map areas and exports all read it, so no two of them disagree.
 */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, online, () => true);
}
