/**
 * A short-lived worker that compiles one strategy module for the sandbox (transform.ts): the
 * TypeScript compiler is loaded here, not in the daemon's thread, and goes away with the worker.
 * Only the module's text is parsed; nothing of it runs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { compileStrategy } from './transform.js';

parentPort?.postMessage(compileStrategy((workerData as { file: string }).file));
