import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types.js';

/** A request's headers: a Headers object (fetch, Next.js) or Node's `req.headers`. */
export type HeadersInput = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** The most a delivery's `webhook-timestamp` may differ from now, in seconds (default 300, the specification's 5 minutes). */
  tolerance?: number;
  /** The time to judge the timestamp against (default: now). */
  now?: Date;
}

const SECRET_PREFIX = 'whsec_';
const encoder = new TextEncoder();

/**
 * Checks a webhook delivery as the Standard Webhooks specification says, with the
 * platform's Web Crypto (Node.js and browsers alike): `webhook-signature` holds an
 * HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the endpoint's
 * secret (`whsec_<base64>`; after a rotation two signatures, either may match), and
 * the timestamp is within `tolerance` of now, so a captured delivery cannot be
 * replayed later. Pass the raw body, as received: a parsed and re-serialised one no
 * longer matches. Resolves with the event; throws WebhookVerificationError.
 */
export async function verifyWebhook(
  secret: string,
  headers: HeadersInput,
  body: string | Uint8Array | ArrayBuffer,
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  if (typeof body !== 'string' && !(body instanceof Uint8Array) && !(body instanceof ArrayBuffer)) {
    throw new TypeError('verifyWebhook needs the raw body as received (a string or bytes), not a parsed object');
  }
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) refuse('Missing webhook-id, webhook-timestamp or webhook-signature header');

  const seconds = /^\d+$/.test(timestamp) ? Number(timestamp) : Number.NaN;
  const now = (options.now ?? new Date()).getTime() / 1000;
  if (!(Math.abs(now - seconds) <= (options.tolerance ?? 300))) refuse('webhook-timestamp is too old or too new');

  const key = await crypto.subtle.importKey('raw', secretBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const signed = encoder.encode(`${id}.${timestamp}.${text}`);
  for (const entry of signatures.split(' ')) {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) continue;
    const bytes = base64Bytes(signature);
    // subtle.verify compares in constant time.
    if (bytes && (await crypto.subtle.verify('HMAC', key, bytes, signed))) return JSON.parse(text) as WebhookEvent;
  }
  return refuse('No signature matches the body under this secret');
}

function header(headers: HeadersInput, name: string): string {
  // A Headers of another realm (a framework's own fetch) is not `instanceof` this one's.
  if (typeof headers.get === 'function') return (headers as Headers).get(name) ?? '';
  const entry = Object.entries(headers as Record<string, string | string[] | undefined>).find(([key]) => key.toLowerCase() === name)?.[1];
  return (Array.isArray(entry) ? entry[0] : entry) ?? '';
}

function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const bytes = base64Bytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (!bytes || bytes.length === 0) throw new TypeError('The webhook secret is not whsec_ followed by base64');
  return bytes;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function refuse(message: string): never {
  throw new WebhookVerificationError({ message });
}
