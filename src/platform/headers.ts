type Headers = Record<string, string | string[] | undefined>;

/** A header's (first) value, by its lower-case name (as undici gives them). */
export const header = (headers: Headers, name: string) => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** A header's value as a finite number, else undefined. */
export const numberHeader = (headers: Headers, name: string) => {
  const v = header(headers, name);
  const n = v === undefined ? Number.NaN : Number(v);
  return Number.isFinite(n) ? n : undefined;
};
