import type { z } from 'zod';

/**
 * A bad environment at start-up, the records service's or the BFF's: every problem listed, one
 * per line, so a bad start says all that is wrong at once.
 */
export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }

  /** The problems of a failed parse of the environment, each named by its variable. */
  static of(error: z.ZodError): EnvError {
    return new EnvError(error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
}
