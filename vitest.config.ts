import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Integration tests bind loopback ports and spawn child processes: keep them in forks,
    // with generous timeouts for the slower end-to-end suites.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
