import { z } from 'zod';
import { id } from './common';

export const loginRequest = z.strictObject({
  username: z.string().trim().min(1, { message: 'Enter your username' }).max(200),
  password: z.string().min(1, { message: 'Enter your password' }).max(1000),
});
export type LoginRequest = z.infer<typeof loginRequest>;

/** POST /login answer. */
export const loginResponse = z.object({
  token: z.string(),
  expires_at: z.string().optional(),
  agencies: z.array(z.object({ id, name: z.string() })).optional(),
  /**
   * The password was a temporary one (contract §10): this token only serves POST /v1/me/password,
   * GET /v1/me and DELETE /v1/me/token until a new password is chosen.
   */
  password_change_required: z.boolean().optional(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const ROLES = ['manager', 'technician'] as const;
export type Role = (typeof ROLES)[number];

/** The signed-in identity the BFF hands the app. Never holds a token. */
export const sessionInfo = z.object({
  user: z.object({
    id: id.nullable(),
    username: z.string(),
    name: z.string().nullable().optional(),
    role: z.enum(ROLES).optional(),
  }),
  agency: z.object({ id, name: z.string() }),
  expiresAt: z.string(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;

/** GET /v1/me on the records service: who the token acts for (a Trapline extension). */
export const whoAmI = z.object({
  user: z.object({
    id: id.nullable(),
    username: z.string(),
    name: z.string().nullable(),
    role: z.enum(ROLES),
  }),
  agency: z.object({ id, name: z.string() }),
  expires_at: z.string().nullable(),
});
export type WhoAmI = z.infer<typeof whoAmI>;

/**
 * Request header naming whose records the app acts on: the user the tablet's screens and database
 * belong to. The browser holds one session cookie for the origin, shared by every tab: after
 * another user signs in in one tab, the others would otherwise send their user's queue, and pull
 * into that user's database, under the new user's session. The BFF refuses a request whose owner
 * is not the session's (401 reauth_required): the queue waits for its own user's sign-in.
 */
export const OWNER_HEADER = 'x-trapline-owner';

/** The OWNER_HEADER value of a user: agency id and username (case-insensitive), URI-encoded. */
export function ownerHeaderValue(owner: { agencyId: number; username: string }): string {
  return `a${owner.agencyId}/${encodeURIComponent(owner.username.toLowerCase())}`;
}
