/**
 * The custom objective's worker: the objective module, compiled like a strategy (transform.ts:
 * no import but the author API), evaluated by the strategy sandbox (evaluate.ts: a Compartment in
 * a locked-down worker, no host globals, no clock, no randomness, no fs or network, a heap bound).
 * Each message is one outcome; the reply is what the default export returned, or why it threw.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { evaluateStrategy } from '../strategy-api/sandbox/evaluate.js';
import { READY, type ObjectiveReply } from './objective-protocol.js';

interface Init {
  program: string;
  fileUrl: string;
}



function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 400);
}

const init = workerData as Init;
let fn: unknown;
let loadError: string | null = null;
try {
  fn = evaluateStrategy(init.program, init.fileUrl);
  if (typeof fn !== 'function') loadError = `its default export is ${fn === undefined ? 'missing' : typeof fn}, not a function of the outcome`;
} catch (err) {
  loadError = `it threw while loading: ${messageOf(err)}`;
}

parentPort?.postMessage(READY);
parentPort?.on('message', (msg: { id: number; outcome: unknown }) => {
  let reply: ObjectiveReply;
  if (loadError !== null) {
    reply = { id: msg.id, ok: false, message: loadError };
  } else {
    try {
      const value = (fn as (o: unknown) => unknown)(harden(msg.outcome));
      const plain = typeof value === 'number' || typeof value === 'string' || value === null;
      reply = plain ? { id: msg.id, ok: true, value } : { id: msg.id, ok: false, message: `it returned ${typeof value}; expected a number, a decimal string or null` };
    } catch (err) {
      reply = { id: msg.id, ok: false, message: `it threw: ${messageOf(err)}` };
    }
  }
  parentPort?.postMessage(reply);
});
