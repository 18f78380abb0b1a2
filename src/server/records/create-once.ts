import type { FastifyRequest } from 'fastify';
import type { Database, Queryable } from '../db/database';
import { HttpError } from '../http/http-error';
import { storeAnswer } from './idempotency';

/**
 * Runs a create so that, for a request with an Idempotency-Key, the record and the answer to
 * replay are committed in one transaction (idempotency.ts, step 2). `create` must open exactly one
 * transaction on the database it is given; `present` turns what that transaction returns into the
 * answer body, inside the transaction, so the stored answer is exactly what the client is sent.
 * If the key's claim was taken over meanwhile, the transaction rolls back: 409, nothing created.
 */
export async function createOnce<T>(
  db: Database,
  req: FastifyRequest,
  create: (db: Database) => Promise<T>,
  present: (tx: Queryable, created: Awaited<T>) => Promise<unknown> = async (_tx, created) =>
    created,
): Promise<unknown> {
  const claim = req.idempotencyClaim;
  let answer: unknown;
  let transactions = 0;
  const once: Database = {
    kind: db.kind,
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
    transaction: (fn) => {
      transactions += 1;
      if (transactions > 1) throw new Error('createOnce: a create must use one transaction');
      return db.transaction(async (tx) => {
        const created = await fn(tx);
        answer = await present(tx, created as unknown as Awaited<T>);
        if (claim && !(await storeAnswer(tx, claim, 201, answer))) {
          throw new HttpError(
            409,
            'idempotency_in_flight',
            'Another request with this Idempotency-Key took over; retry it',
            undefined,
            { 'Retry-After': '1' },
          );
        }
        return created;
      });
    },
  };
  await create(once);
  if (claim) claim.settled = true;
  return answer;
}
