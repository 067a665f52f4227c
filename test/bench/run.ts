/**
 * `npm run bench`: runs every `*.bench.ts` in this folder (or the ones named on the command
 * line) in sequence and prints their figures. Each bench module default-exports an async
 * function that prints its own table. Not part of `npm test`.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

for (const file of files) {
  const mod = (await import(pathToFileURL(path.join(here, file)).href)) as { default: () => Promise<void> };
  console.log(`\n## ${file}`);
  await mod.default();
}
