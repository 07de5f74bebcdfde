import { Agent, type Dispatcher, EnvHttpProxyAgent, setGlobalDispatcher } from 'undici';
import type { ProxySettings } from '../config/config.js';
import { guardedConnector, type PlatformReach } from './host-guard.js';

/*
 * Behind a company's proxy. Node's fetch (which @slack/web-api and the response_url replies use) and
 * undici ignore HTTPS_PROXY unless told: undici's EnvHttpProxyAgent routes each request through the
 * proxy for its scheme, or direct for the hosts NO_PROXY names.
 * https://undici.nodejs.org/#/docs/api/EnvHttpProxyAgent
 */

/** The agent's own timeouts (the platform client's connect, headers and body limits). */
export interface AgentTimeouts {
  connectMs?: number | undefined;
  headersMs?: number | undefined;
  bodyMs?: number | undefined;
}

/**
 * The agent for the platform (the client's and the doctor's probe): its connect, headers and body
 * limits (5 s, 15 s, 30 s unless set), through the proxy when there is one. With `reach`, every
 * connection it opens passes the address guard (`guardedConnector`); behind a proxy the proxy
 * connects, so the client checks the name's addresses itself before each request instead.
 */
export function platformAgent(
  t: AgentTimeouts = {},
  proxy?: ProxySettings,
  reach?: PlatformReach,
): Dispatcher {
  const limits = {
    connectMs: t.connectMs ?? 5_000,
    headersMs: t.headersMs ?? 15_000,
    bodyMs: t.bodyMs ?? 30_000,
  };
  if (proxy) return proxyAgent(proxy, limits);
  return new Agent({
    connect: reach ? guardedConnector(reach, { timeout: limits.connectMs }) : { timeout: limits.connectMs },
    headersTimeout: limits.headersMs,
    bodyTimeout: limits.bodyMs,
  });
}

/** A dispatcher that goes through the proxy (undici's EnvHttpProxyAgent, with these settings). */
export function proxyAgent(proxy: ProxySettings, t: AgentTimeouts = {}): Dispatcher {
  return new EnvHttpProxyAgent({
    ...(proxy.httpProxy ? { httpProxy: proxy.httpProxy } : {}),
    ...(proxy.httpsProxy ? { httpsProxy: proxy.httpsProxy } : {}),
    ...(proxy.noProxy !== undefined ? { noProxy: proxy.noProxy } : {}),
    ...(t.connectMs ? { connect: { timeout: t.connectMs } } : {}),
    ...(t.headersMs ? { headersTimeout: t.headersMs } : {}),
    ...(t.bodyMs ? { bodyTimeout: t.bodyMs } : {}),
  });
}

/**
 * Makes every request of the process that does not name its own dispatcher (Node's fetch: Slack's Web
 * API and response URLs; undici's `request`: uploads) go through the proxy. Called once, at start.
 */
export function proxyEverything(proxy: ProxySettings): void {
  setGlobalDispatcher(proxyAgent(proxy));
}

/** The proxy as the doctor and the logs may show it: without a password in its URL. */
export function describeProxy(proxy: ProxySettings): string {
  const shown = (url: string | undefined) => {
    if (!url) return undefined;
    try {
      const u = new URL(url);
      if (u.password) u.password = '***';
      return u.toString().replace(/\/$/, '');
    } catch {
      return 'an unreadable URL';
    }
  };
  const parts = [
    proxy.httpsProxy ? `https via ${shown(proxy.httpsProxy)}` : undefined,
    proxy.httpProxy ? `http via ${shown(proxy.httpProxy)}` : undefined,
    proxy.noProxy ? `direct for ${proxy.noProxy}` : undefined,
  ].filter(Boolean);
  return parts.join('; ');
}
