const orig = globalThis.setTimeout, origClear = globalThis.clearTimeout;
if (process.env.FAST) { globalThis.setTimeout = (fn, ms, ...a) => (!(ms > 0)) ? { _i: setImmediate(fn, ...a), unref() { return this; }, ref() { return this; } } : orig(fn, ms, ...a); globalThis.clearTimeout = (h) => h && h._i ? clearImmediate(h._i) : origClear(h); }
const { default: Bottleneck } = await import('bottleneck');
const l = new Bottleneck({ reservoir: 100000, maxConcurrent: null });
await l.schedule(async () => 1);
let t = performance.now(); for (let i=0;i<200;i++) await l.schedule({priority: 5, weight: 1}, async () => 1); console.log('bottleneck job', ((performance.now()-t)/200).toFixed(2));
