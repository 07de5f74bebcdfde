import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bindingOf, parseKey, SecretBox } from '../../src/util/secret-box.js';

/* Secrets at rest in distribution mode: sealed, tamper-evident, rotatable, bound to their place. */

const key = () => randomBytes(32);
const here = bindingOf('TALPHA01', 'installation');

/** A value as confdesk sealed it before values were bound (`v1`: no associated data). */
function sealedUnbound(k: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', k, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const id = createHash('sha256').update(k).digest('hex').slice(0, 8);
  return ['v1', id, ...[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'))].join('.');
}

describe('SecretBox', () => {
  it('opens what it sealed; the sealed form does not contain the secret and differs every time', () => {
    const box = new SecretBox([key()]);
    const a = box.seal('xoxb-very-secret', here);
    const b = box.seal('xoxb-very-secret', here);
    expect(a).not.toContain('very-secret');
    expect(a).not.toBe(b);
    expect(box.open(a, here)).toBe('xoxb-very-secret');
    expect(box.open(b, here)).toBe('xoxb-very-secret');
  });

  it('a value opens only where it was sealed for: not in another workspace, not in another field', () => {
    const box = new SecretBox([key()]);
    const sealed = box.seal('xoxb-alpha', here);
    expect(() => box.open(sealed, bindingOf('TBETA002', 'installation'))).toThrow(
      /copied from another workspace/,
    );
    expect(() => box.open(sealed, bindingOf('TALPHA01', 'credentials'))).toThrow(/does not open here/);
    // A team id that merely starts the same way is another place too.
    expect(() => box.open(sealed, bindingOf('TALPHA0', 'installation'))).toThrow();
  });

  it('refuses an altered value, a cut tag and one sealed with another key, naming the fix', () => {
    const box = new SecretBox([key()]);
    const sealed = box.seal('secret', here);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    expect(() => box.open([...parts.slice(0, 4), body.toString('base64url')].join('.'), here)).toThrow();
    // GCM takes tags down to 4 bytes, far easier to forge: only the whole 16 bytes are accepted.
    const cut = Buffer.from(parts[3] ?? '', 'base64url')
      .subarray(0, 4)
      .toString('base64url');
    expect(() => box.open([...parts.slice(0, 3), cut, parts[4]].join('.'), here)).toThrow();
    expect(() => new SecretBox([key()]).open(sealed, here)).toThrow(/CONFDESK_ENCRYPTION_KEY_PREVIOUS/);
    expect(() => box.open('plain text', here)).toThrow(/not in a form/);
  });

  it('rotates: the new key seals, the previous one still opens, and tells what to seal again', () => {
    const old = key();
    const before = new SecretBox([old]).seal('secret', here);
    const rotated = new SecretBox([key(), old]);
    expect(rotated.open(before, here)).toBe('secret');
    expect(rotated.needsResealing(before)).toBe(true);
    const after = rotated.seal('secret', here);
    expect(rotated.needsResealing(after)).toBe(false);
  });

  it('a value sealed before values were bound opens only while allowed, and only to be sealed again', () => {
    const k = key();
    const box = new SecretBox([k]);
    const old = sealedUnbound(k, 'xoxb-from-before');
    expect(box.isUnbound(old)).toBe(true);
    expect(box.needsResealing(old)).toBe(true);
    // The ordinary way refuses it: it says nothing of where it belongs.
    expect(() => box.open(old, here)).toThrow(/not bound to its workspace/);
    expect(box.openUnbound(old)).toBe('xoxb-from-before');
    expect(box.openFor(old, here, true)).toBe('xoxb-from-before');
    expect(() => box.openFor(old, here, false)).toThrow(/install the workspace again/);
    // A bound value is not of the first form, whatever is allowed.
    const now = box.seal('x', here);
    expect(() => box.openUnbound(now)).toThrow(/not in a form/);
    expect(box.openFor(now, here, true)).toBe('x');
  });

  it('reads a key as 64 hex digits or base64, and nothing shorter', () => {
    const k = key();
    expect(parseKey(k.toString('hex'))?.equals(k)).toBe(true);
    expect(parseKey(k.toString('base64'))?.equals(k)).toBe(true);
    expect(parseKey(k.toString('base64url'))?.equals(k)).toBe(true);
    expect(parseKey('too-short')).toBeUndefined();
    expect(parseKey(randomBytes(16).toString('hex'))).toBeUndefined();
  });
});
