/** Child process for the lock test: opens the store in argv[2], prints READY, holds it until killed. */
import { SystemClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/observability/logger.js';
import { openStore } from '../../src/store/index.js';

const store = openStore({ dataDir: process.argv[2] as string, clock: new SystemClock(), logger: silentLogger() });
process.stdout.write('READY\n');
process.on('SIGTERM', () => {
  store.close();
  process.exit(0);
});
setInterval(() => {}, 1000);
