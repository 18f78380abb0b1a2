import type { Role } from '#shared/schemas/auth';

/** Who a request acts for, set by the authentication hook on every `/v1` request. */
export type Caller = {
  agencyId: number;
  /** null for an agency token. */
  userId: number | null;
  /** Agency tokens act with manager rights (contract §7). */
  role: Role;
  tokenKind: 'login' | 'agency';
  tokenId: number;
  /**
   * The person signed in with a temporary password and has not chosen their own yet: only
   * POST /v1/me/password, GET /v1/me and DELETE /v1/me/token serve them (403 otherwise).
   */
  passwordChangeRequired: boolean;
};

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

/** Non-managers update only the records they created; managers any record of their agency. */
export function canUpdate(caller: Caller, ownerUserId: number | null): boolean {
  return caller.role === 'manager' || (caller.userId !== null && caller.userId === ownerUserId);
}
