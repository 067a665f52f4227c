// @ts-check
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/**
 * The dependency rule (docs/architecture.md section 2), as data: for each layer, the layers it
 * must not import. `daemon/`, `backtest/`, `optimize/` and `cli/` wire concrete parts together, and `index.ts` (the package's
 * `main`, the library entry) re-exports; they are unrestricted.
 */
const layers = {
  core: ['model', 'exchange', 'simulator', 'engine', 'store', 'strategy-api', 'config', 'observability', 'console', 'cli', 'daemon'],
  // The domain words (orders, fills, protective legs, flex, credit, markets) beside core: every
  // layer above may import them, and they import only core.
  model: ['exchange', 'simulator', 'engine', 'store', 'strategy-api', 'config', 'observability', 'console', 'web', 'notify', 'backtest', 'cli', 'daemon'],
  exchange: ['simulator', 'engine', 'store', 'strategy-api', 'config', 'console', 'cli', 'daemon'],
  simulator: ['exchange', 'engine', 'store', 'strategy-api', 'config', 'console', 'cli', 'daemon'],
  store: ['exchange', 'simulator', 'engine', 'strategy-api', 'config', 'console', 'cli', 'daemon'],
  engine: ['simulator', 'config', 'console', 'cli', 'daemon'],
  'strategy-api': ['simulator', 'engine', 'store', 'config', 'console', 'cli', 'daemon'],
  config: ['exchange', 'simulator', 'engine', 'store', 'console', 'cli', 'daemon'],
  // The operator console (dashboard, control API) reads the engine and the store; the daemon
  // hands it the rest (the client's queue state, the scheduler) as narrow shapes.
  console: ['exchange', 'simulator', 'strategy-api', 'config', 'cli', 'daemon'],
  web: ['exchange', 'simulator', 'engine', 'store', 'strategy-api', 'config', 'observability', 'console', 'cli', 'daemon'],
  observability: ['exchange', 'simulator', 'engine', 'store', 'strategy-api', 'config', 'console', 'cli', 'daemon'],
  notify: ['exchange', 'simulator', 'engine', 'store', 'strategy-api', 'config', 'console', 'web', 'cli', 'daemon'],
};

/** @param {string[]} banned */
const bannedPatterns = (banned) =>
  banned.flatMap((layer) => [`**/${layer}/**`, `**/${layer}.js`, `../${layer}`, `../../${layer}`]);

/** Finer rules inside an allowed layer: the engine sees the exchange only through its gateway. */
const extraPatterns = {
  engine: ['**/exchange/*', '!**/exchange/gateway.js'],
};

const restrictDate = {
  selector: "MemberExpression[object.name='Date'][property.name='now']",
  message: 'Read time from the injected Clock (src/core/clock.ts).',
};

const restrictedGlobals = [
  { name: 'parseFloat', message: 'Money is never a JS number: use Decimal.' },
  { name: 'setTimeout', message: 'Use the injected Clock.' },
  { name: 'setInterval', message: 'Use the injected Clock.' },
];

/** Globals the strategy sandbox does not have (docs/sandbox.md), named so lint refuses them first. */
const sandboxedGlobals = [
  'global',
  'eval',
  'Function',
  'fetch',
  'WebSocket',
  'XMLHttpRequest',
  'EventSource',
  'require',
  'module',
  'Buffer',
  'Atomics',
  'SharedArrayBuffer',
  'ArrayBuffer',
  'WebAssembly',
  'setImmediate',
  'queueMicrotask',
  'structuredClone',
  'console',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'decimal.js', message: 'Import Decimal from src/core/decimal.ts (the configured one).' }] },
      ],
    },
  },
  // Money and time conventions for production code.
  {
    files: ['src/**/*.ts', 'strategies/**/*.ts'],
    ignores: ['src/core/clock.ts', 'src/core/decimal.ts'],
    rules: {
      'no-restricted-syntax': ['error', restrictDate],
      'no-restricted-globals': ['error', ...restrictedGlobals],
      'no-restricted-properties': [
        'error',
        { object: 'Number', property: 'parseFloat', message: 'Money is never a JS number: use Decimal.' },
      ],
    },
  },
  // Size limits that keep functions readable at once. Line length is checked here rather than by
  // a formatter: the project has none, and long strings, URLs and regexes stay whole.
  {
    files: ['src/**/*.ts', 'strategies/**/*.ts'],
    rules: {
      complexity: ['error', 12],
      'max-depth': ['error', 3],
      'max-len': [
        'error',
        { code: 160, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  ...Object.entries(layers).map(([layer, banned]) => ({
    files: [`src/${layer}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'decimal.js', message: 'Import Decimal from src/core/decimal.ts.' }],
          patterns: [
            { group: bannedPatterns(banned), message: `docs/architecture.md section 2: ${layer} must not import this layer.` },
            ...(extraPatterns[/** @type {keyof typeof extraPatterns} */ (layer)]
              ? [{ group: extraPatterns[/** @type {keyof typeof extraPatterns} */ (layer)], message: 'docs/architecture.md section 2: the engine uses exchange/gateway only.' }]
              : []),
          ],
        },
      ],
    },
  })),
  // Strategies see the author surface only (src/strategy-api/index.ts): not the host side that
  // runs them, not the rest of src/, no Node builtin, no process environment, and no second copy
  // of decimal.js or zod.
  {
    files: ['strategies/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        restrictDate,
        { selector: 'ImportExpression', message: 'Strategies import statically, and only src/strategy-api/index.js.' },
        { selector: "CallExpression[callee.name='require']", message: 'Strategies import only src/strategy-api/index.js.' },
        // The sandbox (docs/sandbox.md) refuses these at run time; lint says so first.
        { selector: "MemberExpression[property.name='constructor']", message: 'No way back to the Function constructor: the sandbox refuses it.' },
        { selector: "MemberExpression[property.value='constructor']", message: 'No way back to the Function constructor: the sandbox refuses it.' },
      ],
      'no-eval': 'error',
      'no-implied-eval': 'off',
      'no-new-func': 'error',
      'no-restricted-globals': [
        'error',
        ...restrictedGlobals,
        { name: 'process', message: 'Strategies read params from ctx, never the process environment.' },
        { name: 'globalThis', message: 'Strategies use only what ctx and src/strategy-api/index.js give them.' },
        ...sandboxedGlobals.map((name) => ({ name, message: `${name} is not there in the strategy sandbox (docs/sandbox.md): only ctx and src/strategy-api/index.js.` })),
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'decimal.js', message: 'Import Decimal from src/strategy-api/index.js.' },
            { name: 'zod', message: 'Import z from src/strategy-api/index.js.' },
          ],
          patterns: [
            {
              // Node builtins, with or without the `node:` scheme (`fs`, `node:fs`, `fs/promises`):
              // a strategy reads no files, spawns nothing and opens no sockets.
              group: ['node:*', ...builtinModules.flatMap((m) => [m, `${m}/*`])],
              message: 'Strategies do not use Node builtins (files, processes, network): only src/strategy-api/index.js.',
            },
            {
              // The sandbox evaluates one file per strategy and resolves only the author API.
              group: ['./*', './**/*'],
              message: 'The strategy sandbox loads one file: no local imports, only src/strategy-api/index.js (docs/sandbox.md).',
            },
            {
              // gitignore semantics: a file is re-included only if its folder is not excluded.
              group: ['**/src/*', '!**/src/strategy-api', '**/src/*/**', '!**/src/strategy-api/index.js'],
              message: 'docs/architecture.md section 2: strategies import only the author surface, src/strategy-api/index.js.',
            },
          ],
        },
      ],
    },
  },
  // Browser code (src/web/browser/, built by tsconfig.browser.json against the DOM library, no
  // bundler): the browser's globals instead of Node's, and no value import but a sibling module
  // (the page loads `./x.js` next to it); types may come from anywhere (the charting library's).
  // Timers are the browser's own: page code has no injected Clock.
  {
    files: ['src/web/browser/**/*.ts'],
    languageOptions: {
      globals: {
        window: 'readonly', document: 'readonly', fetch: 'readonly', EventSource: 'readonly', HTMLElement: 'readonly',
        Element: 'readonly', MessageEvent: 'readonly', requestAnimationFrame: 'readonly', process: 'off', Buffer: 'off',
      },
    },
    rules: {
      'no-restricted-imports': 'off',
      'no-restricted-globals': ['error', { name: 'parseFloat', message: 'Money is never a JS number: round the decimal string (format.ts).' }],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{
            regex: '^(?!\\./[a-z-]+\\.js$)',
            allowTypeImports: true,
            message: 'Browser modules import values only from sibling modules (./name.js): the page has no bundler.',
          }],
        },
      ],
    },
  },
  // The one place that configures decimal.js.
  { files: ['src/core/decimal.ts'], rules: { 'no-restricted-imports': 'off' } },
);
