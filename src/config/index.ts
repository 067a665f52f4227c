export { type ConfigWarning } from './safety.js';
export { loadConfig, isConfigError, PAPER_ENV_FALLBACK, isLoopbackBind, type BotConfig, type LiveApiConfig, type LoadConfigOptions } from './load.js';
export { redactConfig } from './redact.js';
export { Secret, REDACTED, revealed } from './secret.js';
export { configError, problemsFromIssues, formatPath, type ConfigProblem } from './errors.js';
export * from './schema.js';
export { secretValues, scrubSecretEnv, SECRET_ENV_VARS } from './secret-values.js';
export { NOTIFY_EVENT_KINDS, type NotifyConfig, type NotifyEventKind } from './notify.js';
