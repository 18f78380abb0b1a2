import { sessionInfo, type SessionInfo } from '#shared/schemas/auth';

/**
 * The signed-in identity (user and agency, never a token) kept in localStorage so the app opens
 * and works offline. The BFF cookie is the credential; this is only who the tablet belongs to.
 */
const KEY = 'trapline.identity';

export type Owner = { agencyId: number; username: string };

export function loadIdentity(): SessionInfo | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = sessionInfo.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveIdentity(identity: SessionInfo): void {
  localStorage.setItem(KEY, JSON.stringify(identity));
}

export function clearIdentity(): void {
  localStorage.removeItem(KEY);
}

export function ownerOf(identity: SessionInfo): Owner {
  return { agencyId: identity.agency.id, username: identity.user.username };
}
