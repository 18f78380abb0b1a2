import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Open connections one client address may hold at once, where the BFF faces tablets directly
 * (issue 36 N9: one client held 4,000 half-sent bodies open). A browser opens up to 6 per
 * origin, so this leaves room for a few dozen tablets behind one office's NAT.
 */
export const DEFAULT_CONNECTIONS_PER_ADDRESS = 128;

/**
 * The address a reverse proxy on this machine connects from: 127.0.0.1 or ::1 (and the IPv4-mapped
 * form). Only these, not all of 127.0.0.0/8: a peer on another loopback address is counted, which
 * lets a test on any machine (none has to have a network card) stand in for a tablet.
 */
function isLocalProxy(address: string): boolean {
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || a === '127.0.0.1';
}

/**
 * Counts the server's open connections per remote address and destroys a new one beyond `max`
 * at once, before a byte of it is read (so it costs no parser, body buffer or timeout). Loopback
 * is not counted: there the peer is a reverse proxy on the same machine (or a local test), which
 * carries every tablet's connections. `max` 0 turns the cap off.
 */
export function capConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || isLocalProxy(address)) return;
    const held = open.get(address) ?? 0;
    if (held >= max) {
      socket.destroy();
      return;
    }
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
