// @ts-check
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/**
 * The dependency rule (docs/architecture.md section 2), as data: for each layer, the layers it
 * must not import. `main.ts`, `daemon/` and `cli/` wire concrete parts together and are unrestricted.
 */
const layers = {
  core: ['exchange', 'simulator', 'engine', 'store', 'strategy-api', 'config', 'observability', 'console', 'cli', 'main', 'daemon'],
  exchange: ['simulator', 'engine', 'store', 'strategy-api', 'config', 'console', 'cli', 'main', 'daemon'],
  simulator: ['exchange', 'engine', 'store', 'strategy-api', 'config', 'console', 'cli', 'main', 'daemon'],
  store: ['exchange', 'simulator', 'engine', 'strategy-api', 'config', 'console', 'cli', 'main', 'daemon'],
  engine: ['simulator', 'config', 'console', 'cli', 'main', 'daemon'],
  'strategy-api': ['simulator', 'engine', 'store', 'config', 'console', 'cli', 'main', 'daemon'],
  config: ['exchange', 'simulator', 'engine', 'store', 'console', 'cli', 'main', 'daemon'],
  // The operator console (dashboard, control API) reads the engine and the store; the daemon
  // hands it the rest (the client's queue state, the scheduler) as narrow shapes.
  console: ['exchange', 'simulator', 'strategy-api', 'config', 'cli', 'main', 'daemon'],
  web: ['exchange', 'simulator', 'engine', 'store', 'strategy-api', 'config', 'observability', 'console', 'cli', 'main', 'daemon'],
  observability: ['exchange', 'simulator', 'engine', 'store', 'strategy-api', 'config', 'console', 'cli', 'main', 'daemon'],
  notify: ['exchange', 'simulator', 'engine', 'store', 'strategy-api', 'config', 'console', 'web', 'cli', 'main', 'daemon'],
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
  // The one place that configures decimal.js.
  { files: ['src/core/decimal.ts'], rules: { 'no-restricted-imports': 'off' } },
);
