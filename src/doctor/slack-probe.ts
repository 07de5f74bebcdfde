/*
 * The doctor's look at Slack: one `auth.test` with the bot token, whose answer says the team and the
 * bot user, and whose `x-oauth-scopes` header (sent with every Web API answer) says the scopes granted.
 */

export type SlackAuth =
  | { kind: 'ok'; team: string; teamId: string; user: string; userId: string; scopes: string[] | undefined }
  /** Slack answered `{ok:false,error}` (invalid_auth, token_revoked, account_inactive…). */
  | { kind: 'refused'; error: string }
  /** No answer from the Web API (network, DNS, timeout, an HTTP error page). */
  | { kind: 'unreachable'; reason: string };

export async function slackAuthTest(
  token: string,
  apiUrl = 'https://slack.com/api/',
  timeoutMs = 10_000,
): Promise<SlackAuth> {
  let response: Response;
  try {
    response = await fetch(`${apiUrl}auth.test`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: '',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { kind: 'unreachable', reason: cause?.code ?? (error as Error).name };
  }
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!body) return { kind: 'unreachable', reason: `HTTP ${response.status} without a Web API answer` };
  if (body.ok !== true) return { kind: 'refused', error: String(body.error ?? `HTTP ${response.status}`) };
  const header = response.headers.get('x-oauth-scopes');
  return {
    kind: 'ok',
    team: String(body.team ?? ''),
    teamId: String(body.team_id ?? ''),
    user: String(body.user ?? ''),
    userId: String(body.user_id ?? ''),
    scopes:
      header === null
        ? undefined
        : header
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
  };
}
