import { z } from 'zod';
import { id, isoDateOutput } from './common';
import { text } from './text';

/**
 * People of an agency (contract §10). On the wire a role is `manager` or `user`; the records
 * service stores a `user` as a technician (the app's own word, ROLES in ./auth).
 */
export const USER_ROLES = ['manager', 'user'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Usernames people type on a tablet: letters, digits and . _ - @, no spaces. */
const USERNAME = /^[A-Za-z0-9._@-]+$/;
export const username = z
  .string()
  .trim()
  .min(3, { message: 'Use at least 3 characters' })
  .max(64, { message: 'Use at most 64 characters' })
  .regex(USERNAME, { message: 'Use letters, digits and . _ - @ only (no spaces)' });

export const fullName = text()
  .trim()
  .min(1, { message: 'Enter the person’s name' })
  .max(200, { message: 'Use at most 200 characters' });

export const userRole = z.enum(USER_ROLES, { message: 'Choose manager or user' });

/** A user as GET /v1/user lists it. Never a password or its hash. */
export const userRecord = z.object({
  id,
  username: z.string(),
  full_name: z.string().nullable(),
  role: userRole,
  active: z.boolean(),
  add_date: isoDateOutput,
  updated: isoDateOutput,
  last_login: isoDateOutput.nullable(),
});
export type UserRecord = z.infer<typeof userRecord>;

export const userCreate = z.strictObject({ username, full_name: fullName, role: userRole });
export type UserCreate = z.infer<typeof userCreate>;

/** PUT /v1/user/{id}: any of the three. */
export const userUpdate = z
  .strictObject({
    full_name: fullName.optional(),
    role: userRole.optional(),
    active: z.boolean({ message: 'Send true or false' }).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, {
    message: 'Send full_name, role or active',
    path: ['(body)'],
  });
export type UserUpdate = z.infer<typeof userUpdate>;

/** POST /v1/user answer: the user, and the temporary password this once. */
export const createdUser = userRecord.extend({ temporary_password: z.string() });
export type CreatedUser = z.infer<typeof createdUser>;

export const temporaryPassword = z.object({ temporary_password: z.string() });

export const MIN_PASSWORD_LENGTH = 12;

/** POST /v1/me/password. Strength is judged by `newPasswordProblem`, which needs the username. */
export const passwordChange = z.strictObject({
  current_password: z.string().min(1, { message: 'Enter your current password' }).max(1000),
  new_password: z.string().max(1000, { message: 'Use at most 1000 characters' }),
});
export type PasswordChange = z.infer<typeof passwordChange>;

/** Why a new password is refused (contract §10), or null: the same words in the app and services. */
export function newPasswordProblem(password: string, forUsername: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    return `Use at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.trim().toLowerCase() === forUsername.trim().toLowerCase())
    return 'Choose something other than your username';
  return null;
}

/** An agency token as GET /v1/agency/token lists it: never the token or its hash. */
export const agencyTokenRecord = z.object({
  id,
  created_at: isoDateOutput,
  created_by: z.object({ id, username: z.string(), full_name: z.string().nullable() }).nullable(),
});
export type AgencyTokenRecord = z.infer<typeof agencyTokenRecord>;
