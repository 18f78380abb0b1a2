import { canUpdate, type Caller } from '../auth/types';
import { forbidden } from '../errors';

/** Contract §7: non-managers update only the records they created; managers any of the agency. */
export function assertCanUpdate(caller: Caller, ownerUserId: number | null, what: string): void {
  if (!canUpdate(caller, ownerUserId)) {
    throw forbidden(`Only a manager or the person who entered this ${what} can change it`);
  }
}

/** Contract §7: only managers (and agency tokens) delete. */
export function assertManager(caller: Caller, what: string): void {
  if (caller.role !== 'manager') throw forbidden(`Only a manager can delete a ${what}`);
}

/**
 * `agency` and `user` come from the token; a body naming another agency is refused (403,
 * contract §6), on create and on update alike.
 */
export function assertOwnAgency(
  caller: Caller,
  bodyAgency: number | null | undefined,
  what: string,
): void {
  if (bodyAgency != null && bodyAgency !== caller.agencyId) {
    throw forbidden(`A ${what} can only be written for your own agency`);
  }
}
