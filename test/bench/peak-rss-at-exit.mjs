/**
 * Preloaded into a measured run (`node --import`, backtest.bench.ts): when the process exits,
 * writes its peak RSS in KB (getrusage maxRSS: the kernel's high-water mark of the whole process,
 * worker threads included) to file descriptor 3. Plain JavaScript: nothing to compile, so the run
 * measured is the built command alone.
 */
import { writeSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) process.once('exit', () => writeSync(3, `${process.resourceUsage().maxRSS}\n`));
