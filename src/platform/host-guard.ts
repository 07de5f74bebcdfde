import { type LookupAddress, lookup as lookupCallback } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { buildConnector } from 'undici';

/*
 * Distribution mode: anyone can install confdesk in a workspace of their own and type a "platform
 * address" into its settings; confdesk then sends requests there, and fetches the files its answers
 * point to. Left open, that reaches this host's own network (loopback, private ranges, the cloud's
 * metadata address). So a platform address must be an allowed host (`PLATFORM_HOSTS`), or, when no
 * list is set, an https address whose every DNS answer is public; and every address the platform
 * answers with (an export's `url`, a redirect) passes the same rule before a byte is sent there.
 *
 * The address is checked when connecting (an undici connector whose DNS lookup refuses non-public
 * answers), not only when saving: a name that resolved to a public address at save time and to
 * 127.0.0.1 a second later (DNS rebinding) reaches nothing.
 */

/** IPv6 forms that carry an IPv4 address, refused whatever they carry (obsolete tunnels, local NAT64). */
const carriesIpv4 = [
  ipaddr.IPv6.parseCIDR('64:ff9b:1::/48'), // local-use NAT64 (RFC 8215): this network's own translator
  ipaddr.IPv6.parseCIDR('2002::/16'), // 6to4
  ipaddr.IPv6.parseCIDR('2001::/32'), // Teredo
  ipaddr.IPv6.parseCIDR('::/96'), // IPv4-compatible (deprecated)
  ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96'), // IPv4-translated (RFC 6145)
];
/** The well-known NAT64 prefix (RFC 6052): a DNS64 resolver writes a public IPv4 host this way on an IPv6-only network. */
const nat64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * Whether an address is this network's rather than the internet's: anything that ipaddr.js does not
 * call plain `unicast` (loopback, private, link-local, carrier-grade NAT, reserved, multicast…), an
 * IPv4 address written as IPv6 (mapped, NAT64) judged by the IPv4 address it carries, and the tunnel
 * forms that carry one (6to4, Teredo, local NAT64). What does not parse as an address is inside.
 */
export function isInside(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!isIP(bare.replace(/%.*$/, ''))) return true;
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.process(bare); // an IPv4-mapped IPv6 address comes back as its IPv4 address
  } catch {
    return true;
  }
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.match(nat64)) {
      const [hi = 0, lo = 0] = v6.parts.slice(6);
      return isInside(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
    if (carriesIpv4.some((range) => v6.match(range))) return true;
  }
  return ip.range() !== 'unicast';
}

/** Whether `host` is one of `allowed` (`cloud.example.com`, or `*.example.com` for its subdomains). */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allowed.some((a) => {
    const p = a.toLowerCase().trim();
    return p.startsWith('*.') ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p;
  });
}

const defaultResolve = async (host: string) => (await lookup(host, { all: true })).map((a) => a.address);

/**
 * Why confdesk will not reach this platform address, or undefined when it may: a host of
 * `PLATFORM_HOSTS` (any scheme), or, without such a list, https to a host whose every address is public.
 */
export async function platformAddressProblem(
  url: string,
  allowed: readonly string[],
  resolve: (host: string) => Promise<string[]> = defaultResolve,
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

/** What one platform client may reach: its own address, and what the operator vouched for. */
export interface PlatformReach {
  /** The platform's own address (PLATFORM_URL, the simulator's, or a workspace's setting). */
  baseUrl: string;
  /** `PLATFORM_HOSTS`: hosts the operator allows, on any address (an on-premises platform, a file host). */
  allowedHosts: readonly string[];
  /**
   * The operator named the platform address itself (PLATFORM_URL, the built-in simulator): its origin
   * may be on any address, loopback included. False for the address a workspace's admin typed.
   */
  operatorConfigured: boolean;
}

/**
 * What an address may connect to: `any` address (the operator vouched for it), `public` addresses
 * only (over https), or nothing (`refused`, with the reason in words).
 */
export type AddressRule = { kind: 'any' } | { kind: 'public' } | { kind: 'refused'; problem: string };

const defaultPort = (protocol: string) => (protocol === 'https:' ? 443 : 80);
const bareHost = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, '');

/** Said when a host is neither the platform's own nor one the operator listed. */
export const otherHostProblem = "neither the platform's own host nor one of PLATFORM_HOSTS";
/** Said when a name or address is inside this network. */
export const notPublicProblem = 'not a public address';

/**
 * The rule for an origin (scheme, host, port) a client of `reach` is about to connect to:
 * - the platform's own origin, when the operator configured it, and any host of `PLATFORM_HOSTS`:
 *   any address (what the operator named, the operator answers for);
 * - another origin on the platform's own host: public addresses over https only, as a workspace's
 *   platform address itself (a loopback platform's other ports are this host's other services);
 * - any other host: nothing.
 */
export function ruleForOrigin(
  protocol: string,
  hostname: string,
  port: string | number | undefined,
  reach: PlatformReach,
): AddressRule {
  if (protocol !== 'https:' && protocol !== 'http:')
    return { kind: 'refused', problem: 'not an http(s) address' };
  const host = bareHost(hostname);
  const base = new URL(reach.baseUrl);
  if (hostAllowed(host, reach.allowedHosts)) return { kind: 'any' };
  if (host !== bareHost(base.hostname)) return { kind: 'refused', problem: otherHostProblem };
  const sameOrigin =
    protocol === base.protocol &&
    (Number(port) || defaultPort(protocol)) === (Number(base.port) || defaultPort(base.protocol));
  if (sameOrigin && reach.operatorConfigured) return { kind: 'any' };
  if (protocol !== 'https:') return { kind: 'refused', problem: 'not https' };
  return { kind: 'public' };
}

/** `ruleForOrigin` for a whole URL. */
export const ruleFor = (url: URL, reach: PlatformReach): AddressRule =>
  ruleForOrigin(url.protocol, url.hostname, url.port, reach);

/**
 * Why a client of `reach` will not fetch `url`, or undefined. An IP literal is judged here; a name
 * under the `public` rule is resolved here only when `resolveNames` (behind a proxy, which connects
 * in our stead), else the connector judges its addresses when it connects.
 */
export async function fetchProblem(
  url: URL,
  reach: PlatformReach,
  resolveNames: boolean,
  resolve: (host: string) => Promise<string[]> = defaultResolve,
): Promise<string | undefined> {
  if (url.username || url.password) return 'an address with a user name in it';
  const rule = ruleFor(url, reach);
  if (rule.kind === 'refused') return rule.problem;
  if (rule.kind === 'any') return undefined;
  const host = bareHost(url.hostname);
  if (isIP(host)) return isInside(host) ? notPublicProblem : undefined;
  if (!resolveNames) return undefined;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return 'it does not resolve';
  }
  return addresses.length === 0 || addresses.some(isInside) ? notPublicProblem : undefined;
}

/**
 * A connection refused by the guard: thrown through undici to the platform client, which tells it as
 * a `PlatformAddressError` and never retries it.
 */
export class AddressRefusedError extends Error {
  readonly code = 'ERR_CONFDESK_ADDRESS_REFUSED';
  constructor(
    readonly host: string,
    readonly problem: string,
  ) {
    super(`refused to connect to ${host}: ${problem}`);
    this.name = 'AddressRefusedError';
  }
}

/**
 * A DNS lookup for `net.connect`/`tls.connect` that answers only when every address of the name is
 * public: the addresses judged are the ones connected to, so no DNS change between a check and the
 * connection can slip an inside address in.
 */
export const publicLookup = ((hostname: string, options: { all?: boolean }, callback: unknown) => {
  const done = callback as (error: Error | null, address: string | LookupAddress[], family?: number) => void;
  lookupCallback(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return done(error, '', 0);
    const first = addresses[0];
    if (!first || addresses.some((a) => isInside(a.address)))
      return done(new AddressRefusedError(hostname, notPublicProblem), '', 0);
    if (options.all) done(null, addresses);
    else done(null, first.address, first.family);
  });
}) as LookupFunction;

/**
 * An undici connector that applies `ruleForOrigin` to every connection it opens: refused origins
 * never connect, `public` ones connect only to public addresses (an IP literal judged as is, a name
 * through `publicLookup`), the rest as usual.
 */
export function guardedConnector(
  reach: PlatformReach,
  options: buildConnector.BuildOptions = {},
): buildConnector.connector {
  const open = buildConnector(options);
  const openPublic = buildConnector({ ...options, lookup: publicLookup } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const refuse = (problem: string) =>
      queueMicrotask(() => callback(new AddressRefusedError(opts.hostname, problem), null));
    const rule = ruleForOrigin(opts.protocol, opts.hostname, opts.port, reach);
    if (rule.kind === 'refused') return refuse(rule.problem);
    if (rule.kind === 'any') return open(opts, callback);
    // net.connect skips the lookup for an IP literal: it is judged here.
    if (isIP(opts.hostname)) return isInside(opts.hostname) ? refuse(notPublicProblem) : open(opts, callback);
    return openPublic(opts, callback);
  };
}
