/**
 * pm2 app definitions: one long-lived daemon process per mode, each under its own name.
 *
 *   npx pm2 start ecosystem.config.cjs               # paper: app v4-bot-paper (config/paper.env)
 *   npx pm2 start ecosystem.config.cjs --env live    # live:  app v4-bot-live  (.env.live)
 *
 * The file lists only the app of the mode asked for (pm2 evaluates it in its CLI process, so
 * `--env live` is in process.argv): a plain `pm2 start|restart|reload ecosystem.config.cjs`
 * therefore only ever touches the paper app and can never restart a running live daemon as
 * paper, and `--env live` never starts or restarts the paper app. BOT_MODE is pinned per app,
 * so an env file cannot make the paper app trade live (the environment wins over the env file).
 *
 * Variables already set in the environment win over the env file (e.g. BOT_DATA_DIR).
 * Requires the build (`npm ci` / `npm install` run it; or `npm run build`).
 */
/* global module, __dirname */

/** Must stay above config shutdown.drainTimeoutMs (default 10 000) plus the cancel-on-stop time. */
const KILL_TIMEOUT_MS = 20_000;

/** Settings both apps share. */
const common = {
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
};

const paper = {
  ...common,
  name: 'v4-bot-paper',
  env: { NODE_ENV: 'production', ENV_FILE: 'config/paper.env', BOT_MODE: 'paper' },
};

const live = {
  ...common,
  name: 'v4-bot-live',
  // Copy config/live.env.example to .env.live, fill in, chmod 600. Git-ignored.
  env: { NODE_ENV: 'production', ENV_FILE: '.env.live', BOT_MODE: 'live' },
  env_live: { NODE_ENV: 'production', ENV_FILE: '.env.live', BOT_MODE: 'live' },
};

/** `--env live` or `--env=live` on pm2's command line. */
function wantsLive(argv) {
  return argv.some((a, i) => a === '--env=live' || (a === '--env' && argv[i + 1] === 'live'));
}

module.exports = { apps: [wantsLive(process.argv) ? live : paper] };
