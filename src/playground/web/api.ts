/** The page server's JSON API as the page calls it (its types: contract.ts). */
import type { Answer, Json, State } from './contract.js';

export type * from './contract.js';

export async function fetchState(as: string): Promise<State> {
  const res = await fetch(`/api/state?as=${encodeURIComponent(as)}`);
  if (!res.ok) throw new Error(`state: HTTP ${res.status}`);
  return (await res.json()) as State;
}

/** POSTs to the page server; a refused or failed request is an answer with its error, never a throw. */
export async function post(path: string, body: Json): Promise<Answer> {
  try {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const answer = (text ? JSON.parse(text) : {}) as Partial<Answer>;
    const ok = res.ok && answer.ok !== false;
    return {
      ...answer,
      ok,
      ...(ok || answer.error ? {} : { error: `The playground answered HTTP ${res.status}` }),
    };
  } catch (e) {
    return { ok: false, error: `The playground did not answer (${(e as Error).message})` };
  }
}
