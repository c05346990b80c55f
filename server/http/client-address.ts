/**
 * The client's address, as one rule decides it everywhere: the public API, its
 * bad-key limit, sign-in's limiter and the session records all read it from the
 * first X-Forwarded-For entry. That header is the platform's own on Vercel (it
 * replaces any the client sent), and under `npm start` the server writes it before
 * anything reads the request (see resolveClientAddress), so a client cannot
 * choose its address by writing a header.
 */
export function clientAddress(headers: Headers): string {
  return headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
}

/**
 * The client's address behind `trustedProxies` reverse proxies. Each proxy appends
 * the address it was connected from to X-Forwarded-For, and the socket's peer is
 * the last of them; counting that many hops back from the peer reaches the address
 * the outermost trusted proxy saw. Anything further left was written by the client
 * and would let it pick a fresh address for every request. Undefined when the
 * socket is already gone.
 */
export function resolveClientAddress(
  forwardedFor: string | string[] | undefined,
  peer: string | undefined,
  trustedProxies: number,
): string | undefined {
  if (!peer) return undefined;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const chain = header
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  chain.push(peer);
  return chain[Math.max(0, chain.length - 1 - trustedProxies)];
}
