import type { AuditEvent } from '../schemas/audit';

export const CSV_COLUMNS = [
  'id',
  'occurredAt',
  'action',
  'actorType',
  'actorId',
  'actorName',
  'targetType',
  'targetId',
  'targetName',
  'ip',
  'userAgent',
  'requestId',
  'changes',
] as const;

/**
 * RFC 4180: quoted when it holds a quote, comma or line break. A text starting with
 * = + - @ (or a tab or carriage return) is read as a formula by spreadsheets, and names
 * are anyone's to choose: such a cell gets a leading apostrophe, as OWASP advises.
 */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvHeader(): string {
  return `${CSV_COLUMNS.join(',')}\r\n`;
}

export function csvRow(event: AuditEvent): string {
  const cells = [
    event.id,
    event.occurredAt,
    event.action,
    event.actor.type,
    event.actor.id,
    event.actor.name,
    event.target.type,
    event.target.id,
    event.target.name,
    event.ip,
    event.userAgent,
    event.requestId,
    event.changes,
  ];
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function ndjsonLine(event: AuditEvent): string {
  return `${JSON.stringify(event)}\n`;
}
