import type { EndpointSpec } from './endpoints.js';
import { PlatformInputError } from './errors.js';

/** Turns an input value into its query-string form (spec convention 1). */
function wireValue(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map(String).join(',');
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

/**
 * The address of operation `name` for `input`, checked first against the operation's input rules
 * (a `PlatformInputError` names each offending field; nothing is sent): path parameters filled in,
 * the other values in the query under their wire names.
 */
export function requestUrl(baseUrl: string, name: string, spec: EndpointSpec, input: unknown): string {
  const parsed = spec.input.safeParse(input ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({
      field: i.path.length ? i.path.map(String).join('.') : '(input)',
      problem: i.message,
    }));
    const first = issues[0] ?? { field: '(input)', problem: 'invalid' };
    throw new PlatformInputError(name, first.field, first.problem, issues);
  }
  const values = parsed.data as Record<string, unknown>;
  const path = spec.path.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(String(values[key])));
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (spec.path.includes(`{${key}}`)) continue;
    const v = wireValue(value);
    if (v !== undefined) query.set(spec.wire?.[key] ?? key, v);
  }
  const qs = query.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
}
