/**
 * The one strict configuration schema (docs/architecture.md §8.7). Two sources, two schemas:
 * `envSchema` for the process environment (after dotenv) and `fileSchema` for `BOT_CONFIG`.
 * Every object is strict (unknown keys are refused, a typo never silently falls back to a
 * default), every default is written here, and units are in the key names.
 *
 * Money in the file is a decimal *string* ("0.01"), never a JSON number: a number has already
 * been through binary floating point by the time we see it.
 */
import { z } from 'zod';
import { validate as validateCron } from 'node-cron';
import { Decimal, isDecimalString } from '../core/decimal.js';
import { MARKET_RE } from '../core/market-names.js';
import { TIMEFRAMES } from '../model/candles.js';
import { NOTIFY_SECRET_ENV_VARS, notifyEnvShape } from './notify.js';
import { BOT_MODES, CONTROL_TOKEN_EXPECTED, CONTROL_TOKEN_MIN, ENV_DEFAULTS, HOST_EXPECTED, HOST_RE, MAX_PORT, PORT_EXPECTED, PORT_RE } from './env-rules.js';

/** A decimal string ≥ 0, parsed to Decimal. */
export const decimalString = z
  .string({ error: 'a decimal string such as "0.01"' })
  .refine(isDecimalString, { message: 'a plain decimal string such as "0.01" (no exponent, no spaces)' })
  .transform((s) => new Decimal(s));

/** A decimal string > 0. */
export const positiveDecimal = decimalString.refine((d) => d.gt(0), { message: 'a decimal string > 0' });

/** A decimal string ≥ 0. */
export const nonNegativeDecimal = decimalString.refine((d) => d.gte(0), { message: 'a decimal string ≥ 0' });

/** A node-cron expression: 5 fields, or 6 with seconds first. */
export const cronExpression = z
  .string({ error: 'a cron expression such as "*/10 * * * * *"' })
  .refine((s) => validateCron(s), { message: 'a valid cron expression (5 fields, or 6 with seconds first)' });

const CANDLE_SCHEDULES = TIMEFRAMES.map((t) => `candle:${t}`);

/** A strategy's schedule: a cron expression, or once per closed candle (`candle:1m` ... `candle:1d`). */
export const strategySchedule = z
  .string({ error: `a cron expression or one of ${CANDLE_SCHEDULES.join(', ')}` })
  .refine((s) => (s.startsWith('candle:') ? CANDLE_SCHEDULES.includes(s) : validateCron(s)), {
    message: `a valid cron expression (5 fields, or 6 with seconds first) or one of ${CANDLE_SCHEDULES.join(', ')}`,
  });

/** Strategy instance ids prefix every clientOrderId (≤ 32 chars in all), so they stay short. */
export const INSTANCE_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.]{0,15}$/;

const marketName = z.string().regex(MARKET_RE, { message: 'a market name such as "BTC_USDT"' });

/** Per-market trading rules and limits. */
export const marketSchema = z.strictObject({
  /** Price increment, in quote. */
  tick: positiveDecimal,
  /** Amount increment, in base. */
  step: positiveDecimal,
  /** Smallest order amount, in base. */
  minAmount: nonNegativeDecimal,
  /** Smallest order value (amount × price), in quote. */
  minTotalQuote: nonNegativeDecimal,
  /** Largest absolute net position the bot may hold in this market, in base (all strategies). */
  maxPositionBase: positiveDecimal,
  /** Largest number of the bot's open orders in this market (all strategies). Default 50. */
  maxOpenOrders: z.int().min(1).max(10_000).default(50),
});

/** One running instance of a strategy module. */
export const strategyInstanceSchema = z.strictObject({
  /** Module name: a file `strategies/<module>.ts` (or `.js` once built). */
  module: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, { message: 'a module name such as "spot-grid"' }),
  /** Instance id, unique; the prefix of this instance's clientOrderIds. */
  id: z.string().regex(INSTANCE_ID_RE, { message: '1..16 chars of [A-Za-z0-9_.], starting with a letter or digit' }),
  /** Off switch without deleting the entry. Default true. */
  enabled: z.boolean().default(true),
  /** Module-specific parameters, validated by the module's own schema at load. Default {}. */
  params: z.record(z.string(), z.unknown()).default({}),
  /** Overrides the module's default schedule. */
  schedule: strategySchedule.optional(),
  /** Most quote this instance may commit (open orders + position value), in quote. */
  budgetQuote: positiveDecimal,
});

/** Bot-wide risk limits. */
export const riskSchema = z.strictObject({
  /** Largest value of any single order, in quote. */
  maxNotionalPerOrderQuote: positiveDecimal,
  /** Kill switch: equity below its peak by more than this percentage halts trading. Default "10". */
  maxDrawdownPct: positiveDecimal.refine((d) => d.lt(100), { message: 'a percentage between 0 and 100' }).default(new Decimal(10)),
  /** Quote asset equity is measured in. Default "USDT". */
  equityAsset: z.string().regex(/^[A-Z0-9]{1,16}$/).default('USDT'),
});

/** Schedules of the engine jobs (cron, seconds allowed). */
export const jobsSchema = z.strictObject({
  /** Scheduled reconciliation. Default every 30 s. */
  reconcileCron: cronExpression.default('*/30 * * * * *'),
  /** Flex earnings pull. Default every 10 min. */
  flexPullCron: cronExpression.default('0 */10 * * * *'),
  /** Credit-line check. Default every minute. */
  creditCheckCron: cronExpression.default('0 * * * * *'),
  /** Equity / drawdown check. Default every 15 s. */
  equityCheckCron: cronExpression.default('*/15 * * * * *'),
  /** Balance audit (docs/balance-audit.md); it also runs once at start-up. Default hourly. */
  balanceAuditCron: cronExpression.default('0 0 * * * *'),
  /** Most jobs running at once across all lanes. Default 4. */
  maxConcurrentJobs: z.int().min(1).max(64).default(4),
});

/** Candles from the futures listing (docs/market-data.md). */
export const marketDataSchema = z.strictObject({
  /** Seconds between polls of the futures listing that feed the candles: 1 to 5. Default 5. */
  pollSeconds: z.int().min(1).max(5).default(5),
  /** Days of one-minute candles kept; older ones are pruned hourly. Default 30. */
  candleRetentionDays: z.int().min(1).max(3_660).default(30),
});

/** Plugin safety (docs/failure-modes.md #14). */
export const pluginsSchema = z.strictObject({
  /** Deadline of one hook call, ms. Default 5000. */
  hookDeadlineMs: z.int().min(10).max(600_000).default(5_000),
  /** Failures (throw, deadline, bad intent) tolerated within the window before quarantine. Default 3. */
  errorBudget: z.int().min(1).max(1_000).default(3),
  /** Sliding window of the error budget, ms. Default 600000 (10 min). */
  errorWindowMs: z.int().min(1_000).default(600_000),
  /** Fills handed to `ctx.recentFills`. Default 50. */
  recentFillsLimit: z.int().min(1).max(1_000).default(50),
});

/** Bounds of the strategy sandbox (docs/sandbox.md): past either, the instance is quarantined. */
export const sandboxSchema = z.strictObject({
  /** Heap of one strategy instance's worker, MB. Default 256. */
  memoryMb: z.int().min(16).max(4_096).default(256),
  /** Time a module gets to load and validate its params in the sandbox, ms. Default 10000. */
  loadDeadlineMs: z.int().min(100).max(600_000).default(10_000),
});

/** The embedded simulator used in paper mode. */
export const paperSchema = z.strictObject({
  /** Seed of the deterministic market. Default 42. */
  seed: z.int().default(42),
  /** Starting balances of the paper account (asset → decimal string). */
  balances: z.record(z.string().regex(/^[A-Z0-9]{1,16}$/), nonNegativeDecimal).default({
    USDT: new Decimal(10_000),
    BTC: new Decimal('0.5'),
  }),
  /** Starting price per market (market → quote). Markets not listed start at the simulator's default. */
  startPrices: z.record(marketName, positiveDecimal).default({}),
  /** Random-walk step per price move, as a fraction of the price (e.g. "0.001" = 0.1 %). Default "0.001". */
  volatility: positiveDecimal.default(new Decimal('0.001')),
  /** Mean base volume resting orders can fill per price move. Default "1". */
  volumePerStep: positiveDecimal.default(new Decimal(1)),
  /** Interval between simulated price moves, ms. Default 1000. */
  priceStepMs: z.int().min(10).default(1_000),
  /** Flex investments the paper account starts with (so `treasury` has something to report). Default none. */
  flexInvestments: z
    .array(
      z.strictObject({
        /** Invested asset, e.g. "USDT". */
        currency: z.string().regex(/^[A-Z0-9]{1,16}$/),
        /** Invested amount (decimal string). */
        amount: positiveDecimal,
        /** Earnings per simulated day as a fraction of the amount, e.g. "0.0001". Default "0.0001". */
        dailyRate: positiveDecimal.default(new Decimal('0.0001')),
      }),
    )
    .default([]),
});

/** Shutdown behaviour (docs/failure-modes.md #20). */
export const shutdownSchema = z.strictObject({
  /** Cancel this bot's open orders on SIGINT/SIGTERM. Default false (resting orders survive a restart). */
  cancelOwnOrdersOnStop: z.boolean().default(false),
  /** Upper bound on draining in-flight work at stop, ms. pm2 kill_timeout must exceed it. Default 10000. */
  drainTimeoutMs: z.int().min(0).max(120_000).default(10_000),
});

/** When `/healthz` calls the daemon degraded (src/observability/health.ts `degradedReasons`). */
export const healthSchema = z.strictObject({
  /** Reconciliation is stale when its last success is older than this many reconcile intervals. Default 3. */
  reconcileStaleIntervals: z.int().min(2).max(1_000).default(3),
  /** A rate-limit pool paused (venue 429) or refusing calls for longer than this, ms, degrades health. Default 60000. */
  limiterBlockedMaxMs: z.int().min(1_000).default(60_000),
});

/**
 * The balance audit's tolerance (docs/balance-audit.md): a difference between the main balance's
 * change and what the books explain is unexplained when it exceeds both the asset's absolute
 * allowance and the fraction of its balance.
 */
export const auditSchema = z.strictObject({
  /** Allowed difference as a fraction of the larger |balance| at the window's ends. Default "0.0001" (0.01 %). */
  toleranceFraction: nonNegativeDecimal.refine((d) => d.lt(1), { message: 'a fraction below 1, such as "0.0001"' }).default(new Decimal('0.0001')),
  /** Allowed difference per asset, in that asset (e.g. {"USDT": "0.5"}). Default none. */
  toleranceByAsset: z.record(z.string().regex(/^[A-Z0-9]{1,16}$/, { message: 'an asset ticker such as "USDT"' }), nonNegativeDecimal).default({}),
  /** Looks at the balance per audit until the books hold still around one (orders and fills in flight). Default 3. */
  settleAttempts: z.int().min(1).max(20).default(3),
});

/** The `BOT_CONFIG` file. */
export const fileSchema = z
  .strictObject({
    /** Markets the bot may trade, by venue name. */
    markets: z.record(marketName, marketSchema).refine((m) => Object.keys(m).length > 0, { message: 'at least one market' }),
    strategies: z.array(strategyInstanceSchema).default([]),
    risk: riskSchema,
    jobs: jobsSchema.default(jobsSchema.parse({})),
    marketData: marketDataSchema.default(marketDataSchema.parse({})),
    plugins: pluginsSchema.default(pluginsSchema.parse({})),
    sandbox: sandboxSchema.default(sandboxSchema.parse({})),
    paper: paperSchema.default(paperSchema.parse({})),
    shutdown: shutdownSchema.default(shutdownSchema.parse({})),
    health: healthSchema.default(healthSchema.parse({})),
    audit: auditSchema.default(auditSchema.parse({})),
  })
  .superRefine((cfg, ctx) => {
    const seen = new Set<string>();
    cfg.strategies.forEach((s, i) => {
      if (seen.has(s.id)) {
        ctx.addIssue({ code: 'custom', path: ['strategies', i, 'id'], message: 'an id not used by another instance', input: s.id });
      }
      seen.add(s.id);
    });
  });

export type FileConfig = z.output<typeof fileSchema>;

/** Keys of the environment whose values are never echoed, logged or dumped. */
export const SECRET_ENV_KEYS: ReadonlySet<string> = new Set(['API_KEY', 'API_SECRET', 'RATE_LIMIT_REDIS_URL', 'BOT_CONTROL_TOKEN', ...NOTIFY_SECRET_ENV_VARS]);

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The environment (docs/configuration.md › Environment). Unknown variables are ignored here (the environment
 * holds PATH and friends); strictness applies to what we read.
 */
export const envSchema = z.object({
  /** `paper` (default) or `live`. Live only when asked for explicitly. */
  BOT_MODE: z.enum(BOT_MODES).default(ENV_DEFAULTS.BOT_MODE),
  /** Strategy and risk config file. Default `config/bot.json`. */
  BOT_CONFIG: z.string().min(1).default(ENV_DEFAULTS.BOT_CONFIG),
  /** Store directory. Default `./data`. */
  BOT_DATA_DIR: z.string().min(1).default(ENV_DEFAULTS.BOT_DATA_DIR),
  /** Health and metrics port on 127.0.0.1; 0 = off. Default 0. */
  BOT_HTTP_PORT: z
    .string()
    .regex(PORT_RE, { message: PORT_EXPECTED })
    .transform((s) => Number.parseInt(s, 10))
    .refine((n) => n <= MAX_PORT, { message: PORT_EXPECTED })
    .default(ENV_DEFAULTS.BOT_HTTP_PORT),
  /**
   * Address the HTTP server (health, metrics, dashboard, control) binds to. Default 127.0.0.1.
   * Anything but loopback needs BOT_CONTROL_TOKEN (src/config/load.ts refuses without it).
   */
  BOT_HTTP_HOST: z.string().regex(HOST_RE, { message: HOST_EXPECTED }).default(ENV_DEFAULTS.BOT_HTTP_HOST),
  /** Bearer token of the control API and the dashboard (secret), ≥ 24 characters. */
  BOT_CONTROL_TOKEN: z.string().min(CONTROL_TOKEN_MIN, { message: CONTROL_TOKEN_EXPECTED }).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /**
   * `1`: human-readable log lines (pino-pretty) even when stdout is not a terminal (pm2); `0`:
   * JSON lines even on a terminal. Unset: pretty on a terminal only.
   */
  LOG_PRETTY: z.enum(['0', '1']).optional(),
  /** Live venue base URL (https in live mode). */
  API_BASE_URL: z.url({ protocol: /^https?$/, error: 'an http(s) URL' }).optional(),
  API_KEY: z.string().min(1).optional(),
  API_SECRET: z.string().min(1).optional(),
  /**
   * `strict` (default): each nonce above the last the venue saw, private requests one at a time.
   * `window`: unique nonces within ±5 s of the venue clock, private requests concurrently.
   */
  NONCE_MODE: z.enum(['strict', 'window']).default('strict'),
  /**
   * Shared rate-limit store: every process on one API key draws from one budget kept in Redis.
   * Secret (the URL may carry a password). Unset: each process keeps its own budget.
   */
  RATE_LIMIT_REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'a redis:// or rediss:// URL' }).optional(),
  /** Notifications (webhook, Telegram): src/config/notify.ts. */
  ...notifyEnvShape,
});

export type EnvConfig = z.output<typeof envSchema>;
