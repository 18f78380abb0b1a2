/**
 * The records service alone, as its own process, for the chaos runner to kill and restart:
 * `node --import tsx test/chaos/records-process.ts` with TRAPLINE_DATA_DIR and
 * TRAPLINE_DEMO_PASSWORD set. No demo sites (the run compares only its own records); no request
 * log (two cores). Prints `listening at <url>` once it serves.
 */
import { parseRecordsEnv } from '../../src/server/records/env';
import { startRecordsServer } from '../../src/server/records/server';

const running = await startRecordsServer(
  { ...parseRecordsEnv(process.env), RECORDS_PORT: 0 },
  { logger: false, demoData: false },
);
console.log(`listening at ${running.url}`);
