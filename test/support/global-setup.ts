/**
 * Runs once before the suite: compiles `src/` and `strategies/` to `dist/` so tests that start
 * the daemon, the simulator CLI or `status` as child processes run the real built artifact, and
 * the browser code (`tsconfig.browser.json`) that the dashboard serves and the report inlines,
 * read from `dist/` by the sources under test too (src/web/browser-code.ts).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export default function setup(): void {
  // Focused runs during development may skip the build (SKIP_BUILD=1); CI and npm test never do.
  if (process.env['SKIP_BUILD'] === '1') return;
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  for (const project of ['tsconfig.build.json', 'tsconfig.browser.json']) {
    execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: root, stdio: 'inherit' });
  }
  // As `npm run build` does: the launcher (bin/v4-bot.js) then knows every source was compiled.
  execFileSync(process.execPath, [path.join(root, 'bin/build-check.js'), '--stamp'], { cwd: root, stdio: 'inherit' });
}
