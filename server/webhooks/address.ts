import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { env } from '../env';

export const FORBIDDEN_ADDRESS = 'url: must not lead to a loopback, private, link-local or metadata address';
export const FORBIDDEN_PORT = 'url: the port must be 443 or one of 1024 to 65535';
/** What a delivery records when its host leads inside: never the address itself, which would map the network. */
export const RESOLVES_TO_FORBIDDEN = 'The endpoint resolves to a forbidden address';
export const PORT_NOT_ALLOWED = 'The endpoint’s port is not allowed';

const HTTPS_PORT = 443;
const FIRST_UNPRIVILEGED_PORT = 1024;

/**
 * 443, or an unprivileged port (8443, 9443, 3000…), where receivers run; the ports
 * below 1024 belong to other protocols' services (SSH, SMTP, DNS…), which a POST
 * from here has no business reaching.
 */
export function isAllowedPort(url: URL): boolean {
  const port = url.port === '' ? (url.protocol === 'https:' ? HTTPS_PORT : 80) : Number(url.port);
  return port === HTTPS_PORT || port >= FIRST_UNPRIVILEGED_PORT;
}

// RFC 6052's well-known NAT64 prefix: a gateway forwards 64:ff9b::a.b.c.d to a.b.c.d
// (DNS64 networks hand these out for every IPv4-only host), so the IPv4 address decides.
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * Whether an IP address is one a webhook must not be sent to: anything ipaddr.js does
 * not classify as `unicast` (loopback, private, carrier-grade NAT, link-local with the
 * cloud metadata addresses, multicast, broadcast, reserved, documentation, benchmarking,
 * unique-local, site-local, discard, 6to4, Teredo, ORCHID, RFC 6145, local-use NAT64…),
 * the IPv4-compatible `::/96` ipaddr.js calls unicast, and an IPv4-mapped or NAT64
 * address whose IPv4 address is one of those.
 */
export function isForbiddenAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return true;
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return isForbiddenAddress(v6.toIPv4Address().toString());
  if (v6.match(NAT64_WELL_KNOWN)) return isForbiddenAddress(ipaddr.fromByteArray(v6.toByteArray().slice(12)).toString());
  if (v6.parts.slice(0, 6).every((part) => part === 0)) return true;
  return v6.range() !== 'unicast';
}

/**
 * The address as ipaddr.js should see it. ipaddr.js 2.5 reads `::1.2.3.4` (IPv4-compatible)
 * as `::ffff:1.2.3.4` (mapped); the URL parser writes every IPv6 address in hex
 * (`::102:304`), which it reads right. Zone ids (`fe80::1%eth0`) and anything else
 * unparsable give null, refused.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const family = net.isIP(address);
  if (family === 0) return null;
  try {
    return ipaddr.parse(family === 6 ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address);
  } catch {
    return null;
  }
}

export const privateAddressesAllowed = () => env().webhookAllowPrivateAddresses;

/**
 * Why an attempt to this URL is refused before any connection, or null: endpoints
 * saved before a rule changed are held to it, and an IP literal, connected to
 * without a lookup, is checked here.
 */
export function deliveryRefusal(url: URL): string | null {
  if (privateAddressesAllowed()) return null;
  if (!isAllowedPort(url)) return PORT_NOT_ALLOWED;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return net.isIP(host) && isForbiddenAddress(host) ? RESOLVES_TO_FORBIDDEN : null;
}

/**
 * dns.lookup for the delivery's connection: the address refused is the one the
 * socket would connect to, so a name that resolves differently at delivery than
 * when it was saved (DNS rebinding) is still caught.
 */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const list = addresses as dns.LookupAddress[];
    if (!privateAddressesAllowed() && list.some((entry) => isForbiddenAddress(entry.address)))
      return callback(Object.assign(new Error(RESOLVES_TO_FORBIDDEN), { code: 'EFORBIDDEN' }), '', 4);
    if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

/** The addresses a URL's host leads to now; an IP literal is its own. */
export async function resolveHost(url: URL): Promise<string[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host)) return [host];
  const found = await dns.promises.lookup(host, { all: true });
  return found.map((entry) => entry.address);
}
