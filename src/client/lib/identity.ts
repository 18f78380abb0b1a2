import { sessionInfo, type SessionInfo } from '#shared/schemas/auth';

/**
 * The signed-in identity (user and agency, never a token) kept in localStorage so the app opens
 * and works offline. The BFF cookie is the credential; this is only who the tablet belongs to.
 */
export const IDENTITY_KEY = 'trapline.identity';

export type Owner = { agencyId: number; username: string };

/**
 * Who this page is signed in as (set by the signed-in app), which stays so when another tab signs
 * in as someone else and the remembered identity becomes theirs. What reads "the signed-in user"
 * in this page (the reports it keeps and shows, the unsent count) reads this one.
 */
let thisPage: SessionInfo | null = null;

const signInListeners = new Set<() => void>();

/**
 * Calls `listener` whenever this page signs in again (the sign-in sheet): what was refused for
 * want of a sign-in (a report) is asked for again. Returns the unsubscribe.
 */
export function onSignedInAgain(listener: () => void): () => void {
  signInListeners.add(listener);
  return () => signInListeners.delete(listener);
}

/** This page has just signed in again: tells the onSignedInAgain listeners. */
export function announceSignedInAgain(): void {
  for (const listener of signInListeners) listener();
}

/** From now on this page is signed in as `identity` (loadIdentity answers it). Returns the undo. */
export function signedInHere(identity: SessionInfo): () => void {
  thisPage = identity;
  return () => {
    if (thisPage === identity) thisPage = null;
  };
}

/** This page's signed-in identity, else the one remembered on the tablet (the app's start). */
export function loadIdentity(): SessionInfo | null {
  return thisPage ?? rememberedIdentity();
}

/** The identity remembered on the tablet (the last sign-in in any tab). */
function rememberedIdentity(): SessionInfo | null {
  return parseIdentity(localStorage.getItem(IDENTITY_KEY));
}

function parseIdentity(raw: string | null): SessionInfo | null {
  try {
    if (!raw) return null;
    const parsed = sessionInfo.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Calls `listener` whenever another tab signs `owner` in (it remembers the identity at each
 * sign-in; the browser's one session cookie serves every tab). Returns the unsubscribe.
 */
export function onSignedInElsewhere(owner: Owner, listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== IDENTITY_KEY) return;
    const identity = parseIdentity(event.newValue);
    if (identity && sameOwner(ownerOf(identity), owner)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

export function saveIdentity(identity: SessionInfo): void {
  localStorage.setItem(IDENTITY_KEY, JSON.stringify(identity));
}

/**
 * Forgets the remembered identity at sign-out: only if it is still `leaving`'s. A tab left open
 * for a user who signed out in another tab, where someone else then signed in, must not forget
 * the one signed in now.
 */
export function clearIdentity(leaving: SessionInfo): void {
  const remembered = rememberedIdentity();
  if (remembered && !sameOwner(ownerOf(remembered), ownerOf(leaving))) return;
  localStorage.removeItem(IDENTITY_KEY);
}

const sameOwner = (a: Owner, b: Owner) =>
  a.agencyId === b.agencyId && a.username.toLowerCase() === b.username.toLowerCase();

export function ownerOf(identity: SessionInfo): Owner {
  return { agencyId: identity.agency.id, username: identity.user.username };
}
