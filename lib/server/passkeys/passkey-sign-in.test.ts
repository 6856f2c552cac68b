import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { passkeyChallenges, passkeys } from '../platform/db/schema';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { refusal } from '../platform/test-support';
import { signInOptions, verifySignIn } from './passkey-sign-in';
import { softAuthenticator } from './soft-authenticator-test-support';

// Signing in with a passkey, on the server: what verifySignIn accepts, and everything it refuses
// (each refusal spends the challenge and says no more than that it failed).

const origin = 'http://localhost:3000';
const rp = { host: 'localhost:3000', rpId: 'localhost', trusted: [] };

describe.each(testDatabases())('passkey sign-in on $name', (database) => {
  const db = useTestDatabase(database);

  async function withKey(username: string) {
    const key = softAuthenticator({ rpId: 'localhost', origin });
    await db().insert(passkeys).values(key.row(username));
    return key;
  }

  it('signs in the owner of an unrevoked key that answered the challenge, once', async () => {
    const key = await withKey('sina');
    const { challenge, allowCredentials } = await signInOptions(db(), 'sina', rp);
    expect(allowCredentials?.map((c) => c.id)).toEqual([key.kid]);
    const answer = key.answer(challenge);
    await expect(verifySignIn(db(), 'sina', rp, answer)).resolves.toBeUndefined();
    // The challenge answered one sign-in: the same answer again signs nobody in.
    expect((await refusal(verifySignIn(db(), 'sina', rp, answer))).status).toBe(401);
  });

  it('refuses another account, a revoked key, no user verification, another site and a stale challenge', async () => {
    const key = await withKey('tara');
    const other = await withKey('uma');
    const refusedWith = async (username: string, answer: Parameters<typeof verifySignIn>[3]) => (await refusal(verifySignIn(db(), username, rp, answer))).status;

    // Uma's key answering a challenge issued for Tara.
    expect(await refusedWith('tara', other.answer((await signInOptions(db(), 'tara', rp)).challenge))).toBe(401);
    // Without user verification (UP only).
    expect(await refusedWith('tara', key.answer((await signInOptions(db(), 'tara', rp)).challenge, { flags: 0x01 }))).toBe(401);
    // Signed on another site; the challenge is spent all the same.
    const elsewhere = (await signInOptions(db(), 'tara', rp)).challenge;
    expect(await refusedWith('tara', key.answer(elsewhere, { origin: 'https://evil.example' }))).toBe(400);
    expect(await refusedWith('tara', key.answer(elsewhere))).toBe(401);
    // A challenge past its five minutes.
    const late = await signInOptions(db(), 'tara', rp);
    await db().update(passkeyChallenges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passkeyChallenges.challenge, late.challenge));
    expect(await refusedWith('tara', key.answer(late.challenge))).toBe(401);
    // Revoked.
    await db().update(passkeys).set({ revokedAt: new Date() }).where(eq(passkeys.kid, key.kid));
    expect(await refusedWith('tara', key.answer((await signInOptions(db(), 'tara', rp)).challenge))).toBe(401);
  });

  it('keeps no challenge for an account without keys, and only a few at a time for one with keys', async () => {
    await signInOptions(db(), 'nobody-here', rp);
    expect(await db().select().from(passkeyChallenges).where(eq(passkeyChallenges.username, 'nobody-here'))).toEqual([]);
    await withKey('vic');
    for (let i = 0; i < 5; i++) await signInOptions(db(), 'vic', rp);
    expect((await refusal(signInOptions(db(), 'vic', rp))).status).toBe(429);
  });
});
