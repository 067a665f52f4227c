/**
 * pm2 app definition: one long-lived daemon process.
 *
 *   npx pm2 start ecosystem.config.cjs               # paper (env block: config/paper.env)
 *   npx pm2 start ecosystem.config.cjs --env live    # live  (env_live block: .env.live)
 *
 * Variables already set in the environment win over the env file (e.g. BOT_DATA_DIR).
 * Requires the build (`npm install` runs it; or `npm run build`).
 */
/* global module, __dirname */

/** Must stay above config shutdown.drainTimeoutMs (default 10 000) plus the cancel-on-stop time. */
const KILL_TIMEOUT_MS = 20_000;

module.exports = {
  apps: [
    {
      name: 'v4-bot',
      script: 'dist/src/cli/daemon.js',
      cwd: __dirname,
      exec_mode: 'fork',
      instances: 1, // never more: one daemon per data dir and API key (instance lock)
      // Online only after start-up reconciliation: the daemon sends process.send('ready').
      wait_ready: true,
      listen_timeout: 60_000,
      // pm2 sends SIGINT, then SIGKILL after kill_timeout: leave room for the bounded drain.
      kill_signal: 'SIGINT',
      kill_timeout: KILL_TIMEOUT_MS,
      autorestart: true,
      exp_backoff_restart_delay: 1_000,
      max_restarts: 50,
      min_uptime: 10_000,
      // Exit 2 is an invalid configuration: restarting cannot fix it.
      stop_exit_codes: [0, 2],
      max_memory_restart: '400M',
      env: {
        NODE_ENV: 'production',
        ENV_FILE: 'config/paper.env',
      },
      env_live: {
        NODE_ENV: 'production',
        // Copy config/live.env.example to .env.live, fill in, chmod 600. Git-ignored.
        ENV_FILE: '.env.live',
      },
    },
  ],
};
