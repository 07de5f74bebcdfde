import { describe, expect, it } from 'vitest';
import { hostAllowed, isInside, platformAddressProblem } from '../../src/platform/host-guard.js';

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
