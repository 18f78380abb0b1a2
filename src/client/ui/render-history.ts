import type { ReactNode } from 'react';

/**
 * A record screen's History panel, composed in app/ (a feature never imports another): given the
 * record's server id (null: not sent yet) and the server's `updated` it last saw (the panel
 * reads again when that moves).
 */
export type RenderHistory = (serverId: number | null, serverUpdated: string | null) => ReactNode;
