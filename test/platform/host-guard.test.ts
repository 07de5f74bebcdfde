import { describe, expect, it } from 'vitest';
import {
  fetchProblem,
  hostAllowed,
  isInside,
  type PlatformReach,
  platformAddressProblem,
  publicLookup,
  ruleFor,
} from '../../src/platform/host-guard.js';

/* Distribution mode: a workspace's platform address may not reach this host's own network. */

const resolvesTo =
  (...addresses: string[]) =>
  async () =>
    addresses;

describe('the platform address guard', () => {
  it('knows the addresses that are this network’s', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect(isInside(a), a).toBe(true);
    for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34'])
      expect(isInside(a), a).toBe(false);
  });

  it('matches allowed hosts exactly or by *.domain', () => {
    expect(hostAllowed('cloud.apizee.com', ['cloud.apizee.com'])).toBe(true);
    expect(hostAllowed('eu.apizee.com', ['*.apizee.com'])).toBe(true);
    expect(hostAllowed('apizee.com.evil.example', ['*.apizee.com'])).toBe(false);
    expect(hostAllowed('evilapizee.com', ['*.apizee.com'])).toBe(false);
    expect(hostAllowed('127.0.0.1', ['cloud.apizee.com'])).toBe(false);
  });

  it('without a list: https only, and every address public', async () => {
    expect(
      await platformAddressProblem('https://cloud.example', [], resolvesTo('93.184.216.34')),
    ).toBeUndefined();
    expect(await platformAddressProblem('http://cloud.example', [], resolvesTo('93.184.216.34'))).toMatch(
      /https/,
    );
    expect(
      await platformAddressProblem('https://inside.example', [], resolvesTo('93.184.216.34', '10.0.0.5')),
    ).toMatch(/not a public address/);
    expect(await platformAddressProblem('https://169.254.169.254/latest', [], resolvesTo())).toMatch(
      /not a public/,
    );
    expect(await platformAddressProblem('https://[::1]:8443', [], resolvesTo())).toMatch(/not a public/);
    const nowhere = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await platformAddressProblem('https://nowhere.example', [], nowhere)).toMatch(/does not resolve/);
  });

  it('with PLATFORM_HOSTS: those hosts only, whatever their scheme or address', async () => {
    const allowed = ['cloud.apizee.com', '127.0.0.1'];
    expect(await platformAddressProblem('http://127.0.0.1:8080', allowed, resolvesTo())).toBeUndefined();
    expect(
      await platformAddressProblem('https://cloud.apizee.com', allowed, resolvesTo('10.0.0.1')),
    ).toBeUndefined();
    expect(
      await platformAddressProblem('https://other.example', allowed, resolvesTo('93.184.216.34')),
    ).toMatch(/only the platform hosts its operator allowed/);
  });
});

/** The IPv6 forms that carry an IPv4 address, each wrapping `v4` (dotted quad) as its RFC writes it. */
function wrapped(v4: string): Record<string, string> {
  const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
  const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
  const hi = hex(a, b);
  const lo = hex(c, d);
  const xor = (x: number, y: number) => (((x << 8) | y) ^ 0xffff).toString(16);
  return {
    'NAT64 64:ff9b::/96': `64:ff9b::${hi}:${lo}`,
    'NAT64 64:ff9b:1::/48': `64:ff9b:1:${hi}:${lo}::`,
    '6to4 2002::/16': `2002:${hi}:${lo}::1`,
    'Teredo 2001::/32 (server)': `2001:0:${hi}:${lo}::1`,
    'Teredo 2001::/32 (client)': `2001:0:4136:e378:8000:63bf:${xor(a, b)}:${xor(c, d)}`,
    'IPv4-compatible ::/96': `::${hi}:${lo}`,
    'IPv4-mapped ::ffff:0:0/96': `::ffff:${hi}:${lo}`,
    'IPv4-translated ::ffff:0:0:0/96': `::ffff:0:${hi}:${lo}`,
  };
}

describe('the special ranges (a kept list: ipaddr.js, plus the forms that carry an IPv4 address)', () => {
  it('refuses 10.0.0.1 and 169.254.169.254 wrapped in every IPv6 form that carries an IPv4 address', () => {
    for (const v4 of ['10.0.0.1', '169.254.169.254', '127.0.0.1'])
      for (const [form, address] of Object.entries(wrapped(v4))) {
        expect(isInside(address), `${v4} in ${form}: ${address}`).toBe(true);
        expect(isInside(`[${address}]`), `${v4} in ${form}, bracketed`).toBe(true);
      }
  });

  it('lets a public IPv4 host through the well-known NAT64 prefix (DNS64 on an IPv6-only host), not through tunnels', () => {
    const forms = wrapped('93.184.216.34');
    expect(isInside(forms['NAT64 64:ff9b::/96'] as string)).toBe(false);
    expect(isInside(forms['IPv4-mapped ::ffff:0:0/96'] as string)).toBe(false);
    for (const form of ['NAT64 64:ff9b:1::/48', '6to4 2002::/16', 'Teredo 2001::/32 (client)'])
      expect(isInside(forms[form] as string), form).toBe(true);
  });

  it('refuses every range that is not plain unicast, and what is no address at all', () => {
    for (const a of [
      '0.1.2.3',
      '192.0.0.8',
      '192.0.2.1',
      '198.18.0.1',
      '198.51.100.7',
      '203.0.113.9',
      '240.0.0.1',
      '255.255.255.255',
      '224.0.0.251',
      '100::1',
      '2001:db8::1',
      'fec0::1',
      'ff02::1',
      'fe80::1%eth0',
      'localhost',
      '',
      'not an address',
    ])
      expect(isInside(a), a).toBe(true);
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4007:80e::200e'])
      expect(isInside(a), a).toBe(false);
  });
});

describe('the rule for an address the platform answers with', () => {
  const operator: PlatformReach = {
    baseUrl: 'http://127.0.0.1:4010',
    allowedHosts: [],
    operatorConfigured: true,
  };
  const workspace: PlatformReach = {
    baseUrl: 'https://cloud.example',
    allowedHosts: [],
    operatorConfigured: false,
  };
  const listed: PlatformReach = {
    baseUrl: 'https://eu.apizee.example',
    allowedHosts: ['*.apizee.example', 'files.example'],
    operatorConfigured: false,
  };
  const rule = (url: string, reach: PlatformReach) => ruleFor(new URL(url), reach);

  it('reaches any address only where the operator named it: its PLATFORM_URL’s origin, PLATFORM_HOSTS', () => {
    expect(rule('http://127.0.0.1:4010/api/v3/exports/1', operator)).toEqual({ kind: 'any' });
    expect(rule('https://files.example/x', listed)).toEqual({ kind: 'any' });
    expect(rule('https://eu.apizee.example:8443/x', listed)).toEqual({ kind: 'any' });
    // Another port of a loopback platform is another service of this host.
    expect(rule('http://127.0.0.1:6379/', operator)).toMatchObject({ kind: 'refused' });
    expect(rule('https://127.0.0.1:6379/', operator)).toEqual({ kind: 'public' });
    // A workspace's own address: public addresses only, over https.
    expect(rule('https://cloud.example/x', workspace)).toEqual({ kind: 'public' });
    expect(rule('http://cloud.example/x', workspace)).toMatchObject({
      kind: 'refused',
      problem: 'not https',
    });
  });

  it('refuses every other host, however it is written', () => {
    for (const url of [
      'http://127.0.0.1:9/',
      'http://127.1:4010/',
      'http://0x7f000001:4010/',
      'http://2130706433:4010/',
      'http://localhost:4010/',
      'http://[::ffff:7f00:1]:4010/',
      'http://[::1]:4010/',
      'http://169.254.169.254/latest/meta-data/',
      'https://cloud.example.evil.example/',
      'https://evil.example/?cloud.example',
      'file:///etc/passwd',
      'gopher://cloud.example/',
    ])
      expect(rule(url, workspace), url).toMatchObject({ kind: 'refused' });
    // Against a loopback platform: other names of loopback are other hosts; the URL parser writes
    // 127.1 and 0x7f000001 as 127.0.0.1, the operator's own origin once the port is its port.
    for (const url of ['http://localhost:4010/', 'http://[::1]:4010/', 'http://[::ffff:7f00:1]:4010/'])
      expect(rule(url, operator), url).toMatchObject({ kind: 'refused' });
    for (const url of ['http://127.1:4010/', 'http://0x7f000001:4010/', 'http://2130706433:4010/'])
      expect(rule(url, operator), url).toEqual({ kind: 'any' });
    expect(rule('http://0x7f000001:6379/', operator)).toMatchObject({ kind: 'refused' });
  });

  it('judges an IP literal before any request, and resolves a name itself only behind a proxy', async () => {
    const reach: PlatformReach = {
      baseUrl: 'https://[::ffff:a00:1]',
      allowedHosts: [],
      operatorConfigured: false,
    };
    expect(await fetchProblem(new URL('https://[::ffff:a00:1]/x'), reach, false)).toBe(
      'not a public address',
    );
    const name: PlatformReach = {
      baseUrl: 'https://cloud.example',
      allowedHosts: [],
      operatorConfigured: false,
    };
    const inside = async () => ['10.0.0.1'];
    expect(await fetchProblem(new URL('https://cloud.example/x'), name, false, inside)).toBeUndefined();
    expect(await fetchProblem(new URL('https://cloud.example/x'), name, true, inside)).toBe(
      'not a public address',
    );
    expect(
      await fetchProblem(new URL('https://cloud.example/x'), name, true, async () => ['93.184.216.34']),
    ).toBeUndefined();
    expect(await fetchProblem(new URL('https://user:pw@cloud.example/x'), name, false)).toMatch(/user name/);
  });

  it('looks a name up for the connection and refuses it when any answer is inside (DNS rebinding)', async () => {
    const looked = await new Promise<{ error: NodeJS.ErrnoException | null }>((resolve) =>
      publicLookup('localhost', { all: true }, (error) => resolve({ error })),
    );
    expect(looked.error).toMatchObject({
      code: 'ERR_CONFDESK_ADDRESS_REFUSED',
      problem: 'not a public address',
    });
  });
});
