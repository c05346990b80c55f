import dns from 'node:dns';
import net from 'node:net';
import { env } from '../env';

// Loopback, private, shared, link-local (cloud metadata at 169.254.169.254 and
// fd00:ec2::254 among them), multicast and reserved ranges: nothing a public
// webhook receiver lives at.
const forbidden = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  forbidden.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  forbidden.addSubnet(prefix, bits, 'ipv6');
}

export const FORBIDDEN_ADDRESS = 'url: must not lead to a loopback, private, link-local or metadata address';

/** Whether an IP address is one a webhook must not be sent to. */
export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return forbidden.check(mapped[1]!, 'ipv4');
  return forbidden.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export const privateAddressesAllowed = () => env().webhookAllowPrivateAddresses;

/**
 * dns.lookup for the delivery's connection: the address refused is the one the
 * socket would connect to, so a name that resolves differently at delivery than
 * when it was saved (DNS rebinding) is still caught.
 */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const list = addresses as dns.LookupAddress[];
    const bad = !privateAddressesAllowed() && list.find((entry) => isForbiddenAddress(entry.address));
    if (bad)
      return callback(
        Object.assign(new Error(`${hostname} resolves to ${bad.address}, a forbidden address`), { code: 'EFORBIDDEN' }),
        '',
        4,
      );
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
