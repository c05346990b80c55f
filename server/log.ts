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

const lastLogged = new Map<string, number>();

/** Logs an event at most once per interval, so a failing dependency cannot flood the log. */
export function logThrottled(event: string, intervalMs: number, fields: Record<string, unknown>): void {
  const now = Date.now();
  if ((lastLogged.get(event) ?? 0) > now - intervalMs) return;
  lastLogged.set(event, now);
  logEvent('warn', event, fields);
}
