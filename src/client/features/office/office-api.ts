import type { AgencyTokenRecord, CreatedUser, UserCreate, UserRecord, UserUpdate } from '#shared';
import { NetworkError, request, type HttpResult } from '../../lib/http';

/**
 * Why an Office call failed: the server's error (its code, said in the person's language by
 * office-failure.ts), or `offline` when no answer came.
 */
export type OfficeFailure = { code: string; message: string };

/** An Office call's outcome: the answer, or what went wrong and beside which fields. */
export type OfficeResult<T> =
  | { ok: true; value: T }
  | { ok: false; failure: OfficeFailure; fields: Array<{ path: string; message: string }> };

/** The Office reads and writes the server directly (never the tablet's queue): online only. */
async function call<T>(
  path: string,
  options: Parameters<typeof request>[1] = {},
): Promise<OfficeResult<T>> {
  let res: HttpResult<T>;
  try {
    res = await request<T>(path, options);
  } catch (e) {
    if (e instanceof NetworkError)
      return { ok: false, failure: { code: 'offline', message: '' }, fields: [] };
    throw e;
  }
  if (res.ok) return { ok: true, value: res.body };
  return {
    ok: false,
    failure: { code: res.error.code, message: res.error.message },
    fields: res.error.fields ?? [],
  };
}

type List<T> = { rows: T[]; count: number };

export const listPeople = () => call<List<UserRecord>>('/api/v1/user?sort=username&pageSize=1000');
export const addPerson = (body: UserCreate) =>
  call<CreatedUser>('/api/v1/user', { method: 'POST', body });
export const updatePerson = (id: number, body: UserUpdate) =>
  call<UserRecord>(`/api/v1/user/${id}`, { method: 'PUT', body });
export const resetPassword = (id: number) =>
  call<{ temporary_password: string }>(`/api/v1/user/${id}/password`, {
    method: 'POST',
    body: {},
  });

export const listAgencyTokens = () => call<List<AgencyTokenRecord>>('/api/v1/agency/token');
export const createAgencyToken = () =>
  call<{ id: number; token: string }>('/api/v1/agency/token', { method: 'POST', body: {} });
export const revokeAgencyToken = (id: number) =>
  call<{ id: number; revoked: true }>(`/api/v1/agency/token/${id}`, { method: 'DELETE' });
