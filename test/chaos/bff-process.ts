/**
 * The BFF alone (UPSTREAM_URL set), as its own process, for the chaos runner to kill and
 * restart: `node --import tsx test/chaos/bff-process.ts`. Serves /api only (no app build).
 * Prints `listening at <url>` once it serves.
 */
import { parseEnv } from '../../src/server/bff/env';
import { startStack } from '../../src/server/main';

const stack = await startStack({ ...parseEnv(process.env), PORT: 0 }, { staticRoot: null });
console.log(`listening at ${stack.bff.url}`);
