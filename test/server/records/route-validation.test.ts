import Fastify from 'fastify';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { useErrorHandler } from '../../../src/server/http/error-handler';
import { useRouteSchemas } from '../../../src/server/records/route-validation';

/** A bare app with the records service's route-schema reading and error handler, and `body`. */
async function appWith(body: z.ZodType) {
  const logged: unknown[] = [];
  const app = Fastify({
    logger: { level: 'error', stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
  });
  useErrorHandler(app, 'Something went wrong on the records service');
  useRouteSchemas(app);
  app.post('/thing', { schema: { body } }, async (req) => req.body);
  await app.ready();
  return { app, logged };
}

describe('reading bodies with route schemas', () => {
  it("answers the contract's 422 listing the failing field for a body the schema refuses", async () => {
    const { app } = await appWith(z.strictObject({ name: z.string().min(1) }));
    const res = await app.inject({ method: 'POST', url: '/thing', payload: { name: '' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'validation_failed',
      fields: [expect.objectContaining({ path: 'name' })],
    });
    await app.close();
  });

  it('answers a fault while reading a body as a logged 500, never as a quiet 400', async () => {
    const { app, logged } = await appWith(
      z.object({ name: z.string() }).refine(() => {
        throw new TypeError('a bug in a rule');
      }),
    );
    const res = await app.inject({ method: 'POST', url: '/thing', payload: { name: 'x' } });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.message).not.toContain('a bug in a rule');
    expect(JSON.stringify(logged)).toContain('a bug in a rule');
    await app.close();
  });
});
