import { describe, expect, it } from '@jest/globals';
import { SessionSigner, secretsEqual } from './session.js';

const TOKEN = 'a-very-secret-admin-token';

describe('secretsEqual', () => {
  it('accepts only the identical secret, whatever the lengths', () => {
    expect(secretsEqual(TOKEN, TOKEN)).toBe(true);
    expect(secretsEqual(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(secretsEqual('', TOKEN)).toBe(false);
    expect(secretsEqual(TOKEN.toUpperCase(), TOKEN)).toBe(false);
  });
});

describe('SessionSigner', () => {
  it('issues values that never contain the token and that it verifies', () => {
    const signer = new SessionSigner(TOKEN, 60_000);
    const value = signer.issue();
    expect(value).not.toContain(TOKEN);
    expect(signer.verify(value)).toBe(true);
    expect(signer.issue()).not.toBe(value);
  });

  it('rejects values signed with another token, tampered, malformed or missing', () => {
    const signer = new SessionSigner(TOKEN, 60_000);
    const other = new SessionSigner('another-admin-token-entirely', 60_000);
    const value = signer.issue();
    expect(other.verify(value)).toBe(false);
    const [v, exp, nonce, mac] = value.split('.');
    expect(signer.verify([v, String(Number(exp) + 1000), nonce, mac].join('.'))).toBe(false);
    expect(signer.verify([v, exp, `${nonce}A`, mac].join('.'))).toBe(false);
    expect(signer.verify([v, exp, nonce].join('.'))).toBe(false);
    expect(signer.verify(undefined)).toBe(false);
    expect(signer.verify('')).toBe(false);
    expect(signer.verify('x'.repeat(5000))).toBe(false);
  });

  it('expires sessions after the TTL', () => {
    let now = 1_700_000_000_000;
    const signer = new SessionSigner(TOKEN, 60_000, () => now);
    const value = signer.issue();
    now += 59_000;
    expect(signer.verify(value)).toBe(true);
    now += 2000;
    expect(signer.verify(value)).toBe(false);
  });

  it('revokes one session without touching the others', () => {
    const signer = new SessionSigner(TOKEN, 60_000);
    const a = signer.issue();
    const b = signer.issue();
    signer.revoke(a);
    expect(signer.verify(a)).toBe(false);
    expect(signer.verify(b)).toBe(true);
    signer.revoke('garbage');
    expect(signer.verify(b)).toBe(true);
  });
});
