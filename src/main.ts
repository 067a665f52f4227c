/**
 * Composition root (docs/architecture.md §1): the only code, with src/daemon/ and cli/, that wires
 * concrete parts together. The start-up sequence reads top to bottom in src/daemon/start.ts.
 */
export { loadConfiguredStrategies, strategyLoaderPaths } from './daemon/strategies.js';
export { startDaemon, type Daemon, type StartOptions } from './daemon/start.js';
