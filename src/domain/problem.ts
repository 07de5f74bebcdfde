import type { MessageKey } from '../i18n/catalog.js';

/**
 * What domain/ finds wrong with what a person typed, not yet written in a language: a catalog key and
 * its values (outside text as strings, escaped by whoever writes it: blocks/'s `t`, `tPlain`, `sayIn`).
 */
export interface Problem {
  readonly key: MessageKey;
  readonly values?: Readonly<Record<string, string | number>> | undefined;
}

/** A `Problem` of `key` with `values`. */
export const problem = (key: MessageKey, values?: Readonly<Record<string, string | number>>): Problem => ({
  key,
  values,
});
