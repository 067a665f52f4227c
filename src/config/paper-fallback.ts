/**
 * The repository's paper env file, read by `npm start`, `ctl` and `status` when there is no
 * `.env` and no `ENV_FILE` (src/config/load.ts). Its own module, free of the schemas, so a command
 * can name it without loading zod.
 */
export const PAPER_ENV_FALLBACK = 'config/paper.env';
