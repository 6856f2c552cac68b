import { describe, expect, it } from 'vitest';
import { MAX_CLOCK_SKEW_SECONDS, signWebhook, signedWebhookHeaders, verifyWebhook } from './webhook-signature';

const secret = 'whsec-test';
const body = JSON.stringify({ task_id: 't1', output: { total: 3 } });
const now = Date.UTC(2026, 10, 24, 9, 0, 0);

function signedAt(ms: number, signedBody = body) {
  const headers = signedWebhookHeaders(secret, signedBody, ms);
  return { timestamp: headers['X-Plangate-Timestamp'], signature: headers['X-Plangate-Signature'] };
}

describe('webhook signatures', () => {
  it('signs "${timestamp}.${body}" with HMAC-SHA256, as documented', () => {
    // An executor in another language checks it the same way: printf '1700000000.{}' | openssl dgst -sha256 -hmac whsec-test
    expect(signWebhook(secret, '1700000000', '{}')).toBe('sha256=b61622af519f191c257cf4d76855c6f588e4a0799440900d6c0d16b671af84fa');
    expect(signWebhook(secret, '1700000000', '{}')).not.toBe(signWebhook(secret, '1700000001', '{}'));
  });

  it('accepts what it signed, within the clock-skew window either way', () => {
    expect(verifyWebhook(secret, signedAt(now), body, now)).toEqual({ ok: true });
    expect(verifyWebhook(secret, signedAt(now - (MAX_CLOCK_SKEW_SECONDS - 5) * 1000), body, now)).toEqual({ ok: true });
    expect(verifyWebhook(secret, signedAt(now + (MAX_CLOCK_SKEW_SECONDS - 5) * 1000), body, now)).toEqual({ ok: true });
  });

  it('refuses a tampered body', () => {
    const verdict = verifyWebhook(secret, signedAt(now), body.replace('3', '4'), now);
    expect(verdict).toEqual({ ok: false, reason: 'The signature does not match the body' });
  });

  it('refuses an old or far-future timestamp, even correctly signed (a replay)', () => {
    expect(verifyWebhook(secret, signedAt(now - (MAX_CLOCK_SKEW_SECONDS + 5) * 1000), body, now)).toMatchObject({ ok: false, reason: expect.stringContaining('5 minutes') });
    expect(verifyWebhook(secret, signedAt(now + (MAX_CLOCK_SKEW_SECONDS + 5) * 1000), body, now)).toMatchObject({ ok: false });
  });

  it('refuses another secret, a changed timestamp, and missing or malformed headers', () => {
    const good = signedAt(now);
    expect(verifyWebhook('other-secret', good, body, now)).toMatchObject({ ok: false });
    expect(verifyWebhook(secret, { ...good, timestamp: String(Number(good.timestamp) + 1) }, body, now)).toMatchObject({ ok: false });
    expect(verifyWebhook(secret, { timestamp: good.timestamp, signature: undefined }, body, now)).toMatchObject({ ok: false, reason: expect.stringContaining('required') });
    expect(verifyWebhook(secret, { timestamp: 'yesterday', signature: good.signature }, body, now)).toMatchObject({ ok: false });
    expect(verifyWebhook(secret, { timestamp: good.timestamp, signature: 'sha256=abc' }, body, now)).toMatchObject({ ok: false });
    expect(verifyWebhook(secret, { timestamp: good.timestamp, signature: good.signature.replace('sha256=', 'sha1=') }, body, now)).toMatchObject({ ok: false });
  });
});
