import type { FieldError } from '#shared/schemas/error';

/**
 * Why a repository refused a write. Nothing was written when one is thrown: the record and its
 * outbox entry share one transaction.
 */
export class RepositoryError extends Error {
  constructor(
    readonly reason: 'invalid' | 'not_found' | 'has_children' | 'deleted' | 'forbidden',
    message: string,
    readonly fields: FieldError[] = [],
    /** For `has_children`: the unsynced children that hold the record. */
    readonly children: { entity: string; localId: string; label: string }[] = [],
  ) {
    super(message);
    this.name = 'RepositoryError';
  }
}

/** For forms: whether a failed save was refused by a rule (its messages are the technician's). */
export const isRepositoryError = (e: unknown): e is RepositoryError => e instanceof RepositoryError;
