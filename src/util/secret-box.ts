import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/*
 * Secrets at rest (a workspace's bot token, its platform credentials, its webhook secret): sealed with
 * AES-256-GCM under `CONFDESK_ENCRYPTION_KEY`. A sealed value names the key it was sealed with (the
 * first 8 hex digits of the key's SHA-256), so a key can be rotated: the new key seals, the previous
 * one (`CONFDESK_ENCRYPTION_KEY_PREVIOUS`) still opens, and `needsResealing` tells what to seal again.
 */

const version = 'v1';

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

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.current) as Buffer, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [version, this.current, ...parts].join('.');
  }

  /** The plain text; throws when the value was sealed with a key this box does not hold, or altered. */
  open(sealed: string): string {
    const [v, id, iv, tag, body] = sealed.split('.');
    const key = id ? this.keys.get(id) : undefined;
    if (v !== version || !key || iv === undefined || tag === undefined || body === undefined)
      throw new Error(
        key || v !== version
          ? 'a sealed secret is not in a form confdesk wrote'
          : `a secret was sealed with a key confdesk no longer has (key ${id}): set CONFDESK_ENCRYPTION_KEY_PREVIOUS to that key`,
      );
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  /** Whether `sealed` was sealed with an older key (seal it again after a rotation). */
  needsResealing(sealed: string): boolean {
    return sealed.split('.')[1] !== this.current;
  }
}
