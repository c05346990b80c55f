import { AppError, badRequest } from '../errors';

/**
 * Values (objects, arrays and their members) a JSON body may hold. The largest
 * valid body, a task with 5 assignees and 50 labels, holds under a hundred; a
 * megabyte of `[{},{},…]` holds 350,000, and parsing several such bodies at once
 * took tens of megabytes of heap each. Counted before parsing.
 */
export const MAX_JSON_VALUES = 1_000;

/** The body of a JSON request as an object, or why it cannot be one. */
export function parseJsonObject(contentType: string | null, bytes: Buffer): Record<string, unknown> {
  if (!isJson(contentType)) throw new AppError('unsupported_media_type', 'Content-Type must be application/json');
  const text = new TextDecoder().decode(bytes);
  if (!hasAtMostValues(text, MAX_JSON_VALUES)) throw badRequest(`Request body holds more than ${MAX_JSON_VALUES} JSON values`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('Request body must be a JSON object');
  return value as Record<string, unknown>;
}

export function isJson(contentType: string | null): boolean {
  return contentType?.toLowerCase().startsWith('application/json') ?? false;
}

/**
 * Whether `text` opens at most `max` objects, arrays and members, counting the
 * brackets, colons and commas outside strings; malformed text is left to the parser.
 */
function hasAtMostValues(text: string, max: number): boolean {
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b || code === 0x2c || code === 0x3a) {
      if (++count > max) return false;
    }
  }
  return true;
}
