import { BODY_NOT_JSON, BODY_NOT_OBJECT, bodyTooManyValues, JSON_CONTENT_TYPE, MAX_JSON_VALUES } from '../api/messages';
import { AppError, badRequest } from '../errors';

/**
 * The body of a JSON request as an object of at most `maxValues` JSON values, or why it cannot be one. */
export function parseJsonObject(contentType: string | null, bytes: Buffer, maxValues = MAX_JSON_VALUES): Record<string, unknown> {
  if (!isJson(contentType)) throw new AppError('unsupported_media_type', JSON_CONTENT_TYPE);
  const text = new TextDecoder().decode(bytes);
  if (!hasAtMostValues(text, maxValues)) throw badRequest(bodyTooManyValues(maxValues));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(BODY_NOT_JSON);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest(BODY_NOT_OBJECT);
  return value as Record<string, unknown>;
}

export function isJson(contentType: string | null): boolean {
  return contentType?.toLowerCase().startsWith('application/json') ?? false;
}

/**
 * Whether `text` opens at most `max` objects, arrays and members, counting the
 * brackets, colons and commas outside strings; malformed text is left to the parser.
 * The largest valid body, a task with 5 assignees and 50 labels, holds under a
 * hundred values; a megabyte of `[{},{},…]` holds 350,000, and parsing several such
 * bodies at once took tens of megabytes of heap each.
 */
export function hasAtMostValues(text: string, max: number): boolean {
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b || code === 0x2c || code === 0x3a) {
      if (++count > max) return false;
    }
  }
  return true;
}
