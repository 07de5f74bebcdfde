import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/*
 * Secrets at rest (a workspace's bot token, its platform credentials, its webhook secret): sealed with
 * AES-256-GCM under `CONFDESK_ENCRYPTION_KEY`. A sealed value names the key it was sealed with (the
 * first 8 hex digits of the key's SHA-256), so a key can be rotated: the new key seals, the previous
 * one (`CONFDESK_ENCRYPTION_KEY_PREVIOUS`) still opens, and `needsResealing` tells what to seal again.
 *
 * A sealed value is also bound to where it belongs (the workspace and the field, `boundTo`), given to
 * GCM as associated data: the tag covers it, so a value copied into another workspace's row, or into
 * another field, does not open there. Values of the first form (`v1`) carry no binding: they open
 * only through `openUnbound`, for the registry to seal them again bound.
 */

/** The form of a value sealed with its binding. */
const bound = 'v2';
/** The first form, sealed without a binding (kept readable for the move to `v2`). */
const unbound = 'v1';

/** A 32-byte key, given as 64 hex digits or as base64 (44 characters). */
export function parseKey(text: string): Buffer | undefined {
  const t = text.trim();
  if (/^[0-9a-f]{64}$/i.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
    const key = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return key.length === 32 ? key : undefined;
  }
  return undefined;
}

/** A workspace's secrets (distribution mode), each sealed for its own place. */
export type SecretField = 'installation' | 'credentials' | 'webhook-secret';

/**
 * Where a workspace's sealed value belongs (its binding): a value copied into another workspace's row,
 * or into another field of the same row, does not open there.
 */
export const bindingOf = (team: string, field: SecretField): string => `confdesk/${team}/${field}`;

const idOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  private readonly current: string;

  /** `keys[0]` seals; every key opens what it sealed. */
  constructor(keys: Buffer[]) {
    const [first] = keys;
    if (!first) throw new Error('a secret box needs a key');
    this.keys = new Map(keys.map((k) => [idOf(k), k]));
    this.current = idOf(first);
  }

  /** Seals `plain` for `boundTo` (the workspace and field it belongs to): it opens only there. */
  seal(plain: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.current) as Buffer, iv);
    cipher.setAAD(Buffer.from(boundTo, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [bound, this.current, ...parts].join('.');
  }

  /**
   * The plain text of a value sealed for `boundTo`; throws when it was sealed for another place, with
   * a key this box does not hold, without a binding (`isUnbound`), or altered.
   */
  open(sealed: string, boundTo: string): string {
    if (this.isUnbound(sealed))
      throw new Error('a sealed secret is not bound to its workspace (sealed by an earlier confdesk)');
    return this.decrypt(sealed, bound, boundTo);
  }

  /** The plain text of a value of the first form (no binding): only to seal it again, bound. */
  openUnbound(sealed: string): string {
    return this.decrypt(sealed, unbound, undefined);
  }

  /**
   * Opens a value sealed for `boundTo`, or, while `unboundAllowed` (not every stored value has been
   * sealed again bound yet), one of the first form.
   */
  openFor(sealed: string, boundTo: string, unboundAllowed: boolean): string {
    if (!this.isUnbound(sealed)) return this.open(sealed, boundTo);
    if (!unboundAllowed)
      throw new Error(
        'a sealed secret is not bound to its workspace, and every workspace’s secrets were bound: not opened (install the workspace again)',
      );
    return this.openUnbound(sealed);
  }

  /** Whether `sealed` is of the first form, without a binding. */
  isUnbound(sealed: string): boolean {
    return sealed.split('.')[0] === unbound;
  }

  /** Whether `sealed` should be sealed again: with an older key, or without its binding. */
  needsResealing(sealed: string): boolean {
    const [v, id] = sealed.split('.');
    return v !== bound || id !== this.current;
  }

  private decrypt(sealed: string, form: string, boundTo: string | undefined): string {
    const [v, id, iv, tag, body] = sealed.split('.');
    const key = id ? this.keys.get(id) : undefined;
    if (v !== form || !key || iv === undefined || tag === undefined || body === undefined)
      throw new Error(
        key || v !== form
          ? 'a sealed secret is not in a form confdesk wrote'
          : `a secret was sealed with a key confdesk no longer has (key ${id}): set CONFDESK_ENCRYPTION_KEY_PREVIOUS to that key`,
      );
    // The whole 16-byte tag, always: GCM would take a cut one, which is far easier to forge.
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
      authTagLength: 16,
    });
    if (boundTo !== undefined) decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    try {
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      // GCM's own message ("Unsupported state or unable to authenticate data") says neither which.
      throw new Error(
        'a sealed secret does not open here: altered, or copied from another workspace or field',
      );
    }
  }
}
