import type { FastifyInstance } from 'fastify';
import type { RecordsContext } from '../context';
import { authenticate } from '../auth/authenticate';
import { requireSecureTransport } from '../transport';
import { idempotency } from '../idempotency';
import { refuseEncodedUnreserved } from '../encoded-path-guard';
import loginRoutes from './login';
import loginRenewRoutes from './login-renew';
import openapiRoutes from './openapi';
import meRoutes from './v1/me';
import meTokenRoutes from './v1/me/token';
import mePasswordRoutes from './v1/me/password';
import userRoutes from './v1/user';
import siteRoutes from './v1/site';
import lookupRoutes from './v1/lookups';
import agencyTokenRoutes from './v1/agency/token';
import collectionRoutes from './v1/arthropod/collection';
import poolRoutes from './v1/arthropod/pool';
import poolTestRoutes from './v1/arthropod/pool/test';
import historyRoutes from './v1/history';

/**
 * Registers every route of the records service on the root instance.
 * Order of hooks on a request: a path spelling unreserved characters in percent-encoding is
 * refused (400: the same path no client would send, which raw-path checks would misread) →
 * transport (§8) → authentication on /v1 (§7) → idempotency on
 * POST with Idempotency-Key (§9) → the route.
 */
export async function registerRecordsRoutes(
  app: FastifyInstance,
  ctx: RecordsContext,
): Promise<void> {
  app.addHook('onRequest', refuseEncodedUnreserved);
  app.addHook('onRequest', requireSecureTransport(ctx));
  app.addHook('onRequest', authenticate(ctx));
  idempotency(app, ctx);

  await loginRoutes(app, ctx);
  await loginRenewRoutes(app, ctx);
  await openapiRoutes(app, ctx);
  await meRoutes(app, ctx);
  await meTokenRoutes(app, ctx);
  await mePasswordRoutes(app, ctx);
  await userRoutes(app, ctx);
  await siteRoutes(app, ctx);
  await lookupRoutes(app, ctx);
  await agencyTokenRoutes(app, ctx);
  await collectionRoutes(app, ctx);
  await poolRoutes(app, ctx);
  await poolTestRoutes(app, ctx);
  await historyRoutes(app, ctx);
}
