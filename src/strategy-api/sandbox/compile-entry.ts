/**
 * A worker that compiles strategy modules for the sandbox (transform.ts), one per message, in the
 * order asked (compile-worker.ts): the TypeScript compiler is loaded here, not in the daemon's
 * thread, and goes away with the worker. Only the modules' text is parsed; nothing of them runs.
 */
import { parentPort } from 'node:worker_threads';
import { compileStrategy } from './transform.js';

parentPort?.on('message', (request: { file: string }) => parentPort?.postMessage(compileStrategy(request.file)));
