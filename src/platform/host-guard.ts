import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/*
 * Distribution mode (issue 23): anyone can install confdesk in a workspace of their own and type a
 * "platform address" into its settings; confdesk then sends requests there and tells what answered.
 * Left open, that reaches this host's own network (loopback, private ranges, the cloud's metadata
 * address). So a workspace's platform address must be an allowed host (`PLATFORM_HOSTS`), or, when
 * no list is set, an https address whose every DNS answer is public.
 */

const inside = new BlockList();
for (const [net, prefix] of [
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
] as const)
  inside.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  inside.addSubnet(net, prefix, 'ipv6');

/** Whether an address is this network's rather than the internet's (IPv4-mapped IPv6 included). */
export function isInside(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return inside.check(mapped, 'ipv4');
  const family = isIP(address);
  return family === 0 ? true : inside.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether `host` is one of `allowed` (`cloud.example.com`, or `*.example.com` for its subdomains). */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allowed.some((a) => {
    const p = a.toLowerCase().trim();
    return p.startsWith('*.') ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p;
  });
}

/**
 * Why confdesk will not reach this platform address, or undefined when it may: a host of
 * `PLATFORM_HOSTS` (any scheme), or, without such a list, https to a host whose every address is public.
 */
export async function platformAddressProblem(
  url: string,
  allowed: readonly string[],
  resolve: (host: string) => Promise<string[]> = async (host) =>
    (await lookup(host, { all: true })).map((a) => a.address),
): Promise<string | undefined> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (hostAllowed(host, allowed)) return undefined;
  if (allowed.length)
    return `this confdesk reaches only the platform hosts its operator allowed (${allowed.join(', ')})`;
  if (u.protocol !== 'https:') return 'use an https:// address';
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return `${host} does not resolve: check the address`;
  }
  if (addresses.length === 0 || addresses.some(isInside))
    return `${host} is not a public address: confdesk reaches only platforms on the internet (an operator can allow a host with PLATFORM_HOSTS)`;
  return undefined;
}
