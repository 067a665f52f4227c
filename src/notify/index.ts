/** The notification layer (docs/architecture.md, Notifications): imports core and observability only; the daemon wires it. */
export { NOTIFY_KINDS, type NotifyEvent, type NotifyKind, type FillEvent, type AlertEvent, type DailySummaryEvent, type PnlLine, type SummaryEquity } from './events.js';
export { Notifier, type NotifierOptions } from './notifier.js';
export { WebhookSink, signBody, SIGNATURE_HEADER, type WebhookOptions } from './webhook.js';
export { TelegramSink, type TelegramOptions } from './telegram.js';
export { DailyTimer, utcDay, UTC_TIME_RE, type SummaryWindow } from './daily.js';
export { seededRandom, type Random } from './backoff.js';
export { DEFAULT_DELIVERY, type DeliveryPolicy } from './channel.js';
export type { Sink, SendResult } from './sink.js';
