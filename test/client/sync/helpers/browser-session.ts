import { expect } from 'vitest';

/**
 * Signs in at a BFF (or a proxy in front of it) as the app does, and returns the headers a
 * browser then sends by itself on a same-origin request, for an engine running in Node, with the
 * agency the session acts for.
 */
export async function browserSession(
  origin: string,
  username: string,
  password: string,
): Promise<{ headers: Record<string, string>; agencyId: number }> {
  const res = await fetch(`${origin}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF': '1', Origin: origin },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  const agencyId = ((await res.json()) as { agency: { id: number } }).agency.id;
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';', 1)[0])
    .join('; ');
  return { headers: { Cookie: cookie, Origin: origin, 'Sec-Fetch-Site': 'same-origin' }, agencyId };
}
