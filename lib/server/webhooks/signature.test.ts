import { describe, expect, it } from 'vitest';
import { MAX_CLOCK_SKEW_SECONDS, resultSigningString, sentSigningString, sign, signatureMatches, signedHeaders, verifySent } from './signature';

const secret = 'whsec-test';
const body = JSON.stringify({ task_id: 't1', output: { total: 3 } });
const now = Date.UTC(2026, 10, 24, 9, 0, 0);

function signedAt(ms: number, signedBody = body) {
  const headers = signedHeaders(secret, signedBody, ms);
  return { timestamp: headers['X-Plangate-Timestamp'], signature: headers['X-Plangate-Signature'] };
}

describe('what Plangate sends is signed over "<timestamp>.<body>"', () => {
  it('with HMAC-SHA256, as documented', () => {
    // An executor in another language checks it the same way: printf '1700000000.{}' | openssl dgst -sha256 -hmac whsec-test
    expect(sign(secret, sentSigningString('1700000000', '{}'))).toBe('sha256=b61622af519f191c257cf4d76855c6f588e4a0799440900d6c0d16b671af84fa');
    expect(sign(secret, sentSigningString('1700000000', '{}'))).not.toBe(sign(secret, sentSigningString('1700000001', '{}')));
  });

  it('accepts what it signed, within the clock-skew window either way', () => {
    expect(verifySent(secret, signedAt(now), body, now)).toEqual({ ok: true });
    expect(verifySent(secret, signedAt(now - (MAX_CLOCK_SKEW_SECONDS - 5) * 1000), body, now)).toEqual({ ok: true });
    expect(verifySent(secret, signedAt(now + (MAX_CLOCK_SKEW_SECONDS - 5) * 1000), body, now)).toEqual({ ok: true });
  });

  it('refuses a tampered body', () => {
    expect(verifySent(secret, signedAt(now), body.replace('3', '4'), now)).toEqual({ ok: false, reason: 'The signature does not match the body' });
  });

  it('refuses an old or far-future timestamp, even correctly signed (a replay)', () => {
    expect(verifySent(secret, signedAt(now - (MAX_CLOCK_SKEW_SECONDS + 5) * 1000), body, now)).toMatchObject({ ok: false, reason: expect.stringContaining('5 minutes') });
    expect(verifySent(secret, signedAt(now + (MAX_CLOCK_SKEW_SECONDS + 5) * 1000), body, now)).toMatchObject({ ok: false });
  });

  it('refuses another secret, a changed timestamp, and missing or malformed headers', () => {
    const good = signedAt(now);
    expect(verifySent('other-secret', good, body, now)).toMatchObject({ ok: false });
    expect(verifySent(secret, { ...good, timestamp: String(Number(good.timestamp) + 1) }, body, now)).toMatchObject({ ok: false });
    expect(verifySent(secret, { timestamp: good.timestamp, signature: undefined }, body, now)).toMatchObject({ ok: false, reason: expect.stringContaining('required') });
    expect(verifySent(secret, { timestamp: 'yesterday', signature: good.signature }, body, now)).toMatchObject({ ok: false });
    expect(verifySent(secret, { timestamp: good.timestamp, signature: 'sha256=abc' }, body, now)).toMatchObject({ ok: false });
    expect(verifySent(secret, { timestamp: good.timestamp, signature: good.signature.replace('sha256=', 'sha1=') }, body, now)).toMatchObject({ ok: false });
  });
});

describe('a result is signed over method, path, attempt, timestamp and body', () => {
  const parts = { method: 'POST', path: '/api/runs/r1/tasks/t1/result', attempt: '1.1', timestamp: '1700000000', body: '{"state":"succeeded","output":42}' };

  it('one per line, as docs/security.md "Signed results" gives it', () => {
    expect(resultSigningString(parts)).toBe('POST\n/api/runs/r1/tasks/t1/result\n1.1\n1700000000\n{"state":"succeeded","output":42}');
    // printf 'POST\n/api/runs/r1/tasks/t1/result\n1.1\n1700000000\n{"state":"succeeded","output":42}' | openssl dgst -sha256 -hmac whsec-test
    expect(sign(secret, resultSigningString(parts))).toBe('sha256=037830e1c8a9eb5b2febef537c5aa3877d6e314885c85cc214042e4f63481925');
  });

  it('so the same signature fits no other run, task, attempt or body, and nothing Plangate sent', () => {
    const signature = sign(secret, resultSigningString(parts));
    expect(signatureMatches(secret, resultSigningString(parts), signature)).toBe(true);
    for (const other of [
      { ...parts, path: '/api/runs/r1/tasks/t2/result' },
      { ...parts, path: '/api/runs/r2/tasks/t1/result' },
      { ...parts, attempt: '1.2' },
      { ...parts, attempt: '2.1' },
      { ...parts, timestamp: '1700000001' },
      { ...parts, body: '{"state":"succeeded","output":43}' },
    ]) {
      expect(signatureMatches(secret, resultSigningString(other), signature), JSON.stringify(other)).toBe(false);
    }
    // A signed message Plangate sent (same secret) is no signed result.
    const sent = sign(secret, sentSigningString(parts.timestamp, parts.body));
    expect(signatureMatches(secret, resultSigningString(parts), sent)).toBe(false);
  });
});
