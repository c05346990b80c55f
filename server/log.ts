/**
 * Server-side logging: one JSON line per event on stderr. Nothing logged here
 * may carry a secret: callers pass ids and messages, never keys or bodies.
 */
export function logEvent(level: 'info' | 'warn' | 'error', event: string, fields: Record<string, unknown> = {}): void {
  const line = { time: new Date().toISOString(), level, event, ...fields };
  process.stderr.write(`${JSON.stringify(line, errorReplacer)}\n`);
}

function errorReplacer(_key: string, value: unknown) {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}

const throttled = new Map<string, { count: number; fields: Record<string, unknown> }>();

/**
 * Logs an event at most once per interval, so a failing dependency cannot flood
 * the log: the first time at once, then, at the end of each interval in which it
 * happened again, one line whose `count` says how often (with the last fields).
 */
export function logThrottled(event: string, intervalMs: number, fields: Record<string, unknown>): void {
  const pending = throttled.get(event);
  if (pending) {
    pending.count += 1;
    pending.fields = fields;
    return;
  }
  logEvent('warn', event, { ...fields, count: 1 });
  holdBack(event, intervalMs);
}

function holdBack(event: string, intervalMs: number): void {
  const pending = { count: 0, fields: {} };
  throttled.set(event, pending);
  setTimeout(() => {
    if (pending.count === 0) {
      throttled.delete(event);
      return;
    }
    logEvent('warn', event, { ...pending.fields, count: pending.count });
    holdBack(event, intervalMs);
  }, intervalMs).unref();
}
