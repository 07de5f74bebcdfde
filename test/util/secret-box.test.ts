import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseKey, SecretBox } from '../../src/util/secret-box.js';

/* Secrets at rest in distribution mode (issue 23): sealed, tamper-evident, rotatable. */

const key = () => randomBytes(32);

describe('SecretBox', () => {
  it('opens what it sealed; the sealed form does not contain the secret and differs every time', () => {
    const box = new SecretBox([key()]);
    const a = box.seal('xoxb-very-secret');
    const b = box.seal('xoxb-very-secret');
    expect(a).not.toContain('very-secret');
    expect(a).not.toBe(b);
    expect(box.open(a)).toBe('xoxb-very-secret');
    expect(box.open(b)).toBe('xoxb-very-secret');
  });

  it('refuses an altered value and one sealed with another key, naming the fix', () => {
    const box = new SecretBox([key()]);
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[4] = body.toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox([key()]).open(sealed)).toThrow(/CONFDESK_ENCRYPTION_KEY_PREVIOUS/);
    expect(() => box.open('plain text')).toThrow(/not in a form/);
  });

  it('rotates: the new key seals, the previous one still opens, and tells what to seal again', () => {
    const old = key();
    const before = new SecretBox([old]).seal('secret');
    const rotated = new SecretBox([key(), old]);
    expect(rotated.open(before)).toBe('secret');
    expect(rotated.needsResealing(before)).toBe(true);
    const after = rotated.seal('secret');
    expect(rotated.needsResealing(after)).toBe(false);
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
