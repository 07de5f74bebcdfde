import type { PlatformCredentials } from '../config/config.js';

/** Obtains a new token from the platform: `POST /api/v3/token` (wired by the client). */
export type TokenFetcher = (
  username: string,
  password: string,
) => Promise<{ token: string; expiresInS: number }>;

/**
 * Supplies the bearer token. A static token is used as given. With username/password, a token is
 * fetched on first use and renewed before it expires (tokens live 24 h, platform-facts.md) or after
 * a 401; concurrent callers share one renewal. Tokens are never logged.
 */
export class TokenProvider {
  private current: { token: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly credentials: PlatformCredentials,
    private readonly fetchToken: TokenFetcher,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when the provider can obtain a fresh token after a 401. */
  get renewable(): boolean {
    return this.credentials.kind === 'password';
  }

  /** The token to send now. */
  async token(): Promise<string> {
    if (this.credentials.kind === 'token') return this.credentials.token;
    if (this.current && this.now() < this.current.renewAt) return this.current.token;
    return this.renew();
  }

  /**
   * Drops a token the platform refused, and fetches a new one unless another caller already did
   * (`rejected` is the token that got the 401).
   */
  async afterUnauthorized(rejected: string): Promise<string> {
    if (this.credentials.kind === 'token') return this.credentials.token;
    if (this.current && this.current.token !== rejected) return this.current.token;
    this.current = undefined;
    return this.renew();
  }

  private renew(): Promise<string> {
    if (this.credentials.kind === 'token') return Promise.resolve(this.credentials.token);
    const { username, password } = this.credentials;
    this.pending ??= this.fetchToken(username, password)
      .then(({ token, expiresInS }) => {
        // Renew when 90% of the lifetime has passed, at most 10 minutes before expiry.
        const lifetimeMs = expiresInS * 1000;
        const margin = Math.min(lifetimeMs * 0.1, 10 * 60_000);
        this.current = { token, renewAt: this.now() + lifetimeMs - margin };
        return token;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }
}
