import { count, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { signInFailures } from '../platform/db/schema';
import {
  DEVICE_COOKIE_DAYS,
  PER_CLIENT,
  PER_USER,
  SLOW_INTERVAL_MS,
  UNKNOWN_ADDRESS,
  WINDOW_MS,
  beginSignInAttempt,
  clientAddress,
  deviceCookieName,
  deviceCookieOptions,
  knownDevice,
  newDeviceId,
  pruneSignInFailures,
  retryMessage,
  signDeviceCookie,
  signInSucceeded,
} from './sign-in-limiter';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

describe('clientAddress', () => {
  const withFor = (value: string) => new Headers({ 'x-forwarded-for': value });

  it('ignores X-Forwarded-For unless PLANGATE_TRUST_PROXY says a proxy writes it', () => {
    expect(clientAddress(withFor('10.0.0.9'), {})).toBe(UNKNOWN_ADDRESS);
    expect(clientAddress(withFor('10.0.0.9'), { PLANGATE_TRUST_PROXY: '0' })).toBe(UNKNOWN_ADDRESS);
    expect(clientAddress(withFor('10.0.0.9'), { PLANGATE_TRUST_PROXY: 'yes' })).toBe(UNKNOWN_ADDRESS);
  });

  it('takes the entry the trusted proxy appended, not what the client sent before it', () => {
    expect(clientAddress(withFor('6.6.6.6, 10.0.0.9'), { PLANGATE_TRUST_PROXY: '1' })).toBe('10.0.0.9');
    expect(clientAddress(withFor('6.6.6.6, 10.0.0.9'), { PLANGATE_TRUST_PROXY: 'true' })).toBe('10.0.0.9');
    expect(clientAddress(withFor('6.6.6.6, 10.0.0.9, 10.0.0.1'), { PLANGATE_TRUST_PROXY: '2' })).toBe('10.0.0.9');
    expect(clientAddress(withFor('10.0.0.9'), { PLANGATE_TRUST_PROXY: '2' })).toBe(UNKNOWN_ADDRESS);
    expect(clientAddress(new Headers(), { PLANGATE_TRUST_PROXY: '1' })).toBe(UNKNOWN_ADDRESS);
  });

  it('words the wait', () => {
    expect(retryMessage(1)).toBe('Too many failed sign-ins. Try again in 1 second.');
    expect(retryMessage(30)).toBe('Too many failed sign-ins. Try again in 30 seconds.');
    expect(retryMessage(14 * 60 + 1)).toBe('Too many failed sign-ins. Try again in 15 minutes.');
  });
});

describe('known-device cookies', () => {
  const secret = 's'.repeat(40);

  it('name a device for the user they were signed for, under the server secret', () => {
    const device = newDeviceId();
    expect(device).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(newDeviceId()).not.toBe(device);
    const cookie = signDeviceCookie(secret, 'alice', device);
    expect(cookie.startsWith(`${device}.`)).toBe(true);
    expect(knownDevice(secret, 'alice', cookie)).toBe(device);
  });

  it('ignore a cookie for another user, a forged or altered HMAC, another secret, and junk', () => {
    const device = newDeviceId();
    const cookie = signDeviceCookie(secret, 'alice', device);
    const mac = cookie.slice(device.length + 1);
    // Mallory's own cookie (she signed in as herself) does nothing for alice.
    expect(knownDevice(secret, 'mallory', cookie)).toBeNull();
    expect(knownDevice(secret, 'alice', signDeviceCookie(secret, 'mallory', device))).toBeNull();
    // A made-up or altered MAC, another device id under alice's MAC, another server's secret.
    expect(knownDevice(secret, 'alice', `${device}.${'A'.repeat(mac.length)}`)).toBeNull();
    expect(knownDevice(secret, 'alice', `${device}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(knownDevice(secret, 'alice', `${newDeviceId()}.${mac}`)).toBeNull();
    expect(knownDevice('o'.repeat(40), 'alice', cookie)).toBeNull();
    for (const junk of [undefined, null, '', device, `.${mac}`, `${device}.`, `short.${mac}`, `${device}.${mac}.x`, 'x'.repeat(500)]) {
      expect(knownDevice(secret, 'alice', junk), String(junk)).toBeNull();
    }
  });

  it('are per username, long-lived, httpOnly, SameSite=Lax, Secure unless PLANGATE_INSECURE_COOKIES=1', () => {
    expect(deviceCookieName('alice')).toBe('plangate_device_alice');
    expect(deviceCookieOptions({})).toEqual({ httpOnly: true, secure: true, sameSite: 'lax', path: '/', maxAge: DEVICE_COOKIE_DAYS * 86_400 });
    expect(DEVICE_COOKIE_DAYS).toBe(180);
    expect(deviceCookieOptions({ PLANGATE_INSECURE_COOKIES: '1' }).secure).toBe(false);
    expect(deviceCookieOptions({ PLANGATE_INSECURE_COOKIES: '0' }).secure).toBe(true);
  });
});

describe.each(testDatabases())('sign-in limiter on $name', (database) => {
  const db = useTestDatabase(database);

  async function fail(username: string, address: string, ms: number) {
    const attempt = await beginSignInAttempt(db(), username, address, at(ms));
    expect(attempt.allowed, `${username} from ${address} at ${ms}`).toBe(true);
  }

  it('refuses a username and address from the 11th attempt for the rest of the window, and only there', async () => {
    for (let i = 0; i < PER_CLIENT; i++) await fail('mallet', '10.0.0.1', i);
    expect(await beginSignInAttempt(db(), 'mallet', '10.0.0.1', at(PER_CLIENT))).toEqual({ allowed: false, retryAfterSeconds: 15 * 60 });
    expect(await beginSignInAttempt(db(), 'mallet', '10.0.0.1', at(10 * 60 * 1000))).toEqual({ allowed: false, retryAfterSeconds: 5 * 60 });
    // Another address, and another user from the same address, are not affected.
    expect((await beginSignInAttempt(db(), 'mallet', '10.0.0.2', at(PER_CLIENT))).allowed).toBe(true);
    expect((await beginSignInAttempt(db(), 'mallory', '10.0.0.1', at(PER_CLIENT))).allowed).toBe(true);
    // Once the oldest attempt leaves the window, one more is allowed.
    expect((await beginSignInAttempt(db(), 'mallet', '10.0.0.1', at(WINDOW_MS + 1))).allowed).toBe(true);
  });

  it('counts an attempt before the password is checked, so parallel guesses cannot all pass', async () => {
    const attempts = await Promise.all(Array.from({ length: 25 }, () => beginSignInAttempt(db(), 'racer', '10.0.0.3', at(0))));
    expect(attempts.filter((a) => a.allowed)).toHaveLength(PER_CLIENT);
  });

  it('does not count a successful sign-in, but keeps the failures before it', async () => {
    for (let i = 0; i < PER_CLIENT - 1; i++) await fail('trent', '10.0.0.4', i);
    const good = await beginSignInAttempt(db(), 'trent', '10.0.0.4', at(20));
    if (!good.allowed) throw new Error('refused');
    await signInSucceeded(db(), good);
    await fail('trent', '10.0.0.4', 21);
    expect((await beginSignInAttempt(db(), 'trent', '10.0.0.4', at(22))).allowed).toBe(false);
  });

  it('slows a username down, never locks it, when guesses come from many addresses', async () => {
    for (let i = 0; i < PER_USER; i++) await fail('victim', `10.1.0.${i}`, i);
    // Beyond 50 from anywhere: one attempt per 30 seconds, from any address, for anyone.
    expect(await beginSignInAttempt(db(), 'victim', '10.2.0.1', at(PER_USER))).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect((await beginSignInAttempt(db(), 'victim', '10.2.0.1', at(PER_USER - 1 + SLOW_INTERVAL_MS))).allowed).toBe(true);
    expect((await beginSignInAttempt(db(), 'victim', '10.2.0.2', at(PER_USER + SLOW_INTERVAL_MS))).allowed).toBe(false);
    expect((await beginSignInAttempt(db(), 'victim', '10.2.0.2', at(PER_USER - 1 + 2 * SLOW_INTERVAL_MS))).allowed).toBe(true);
  });

  it('without a known address, slows the username down from the 11th attempt instead of locking everyone out', async () => {
    for (let i = 0; i < PER_CLIENT; i++) await fail('walter', UNKNOWN_ADDRESS, i * 1000);
    expect(await beginSignInAttempt(db(), 'walter', UNKNOWN_ADDRESS, at(9_500))).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect((await beginSignInAttempt(db(), 'walter', UNKNOWN_ADDRESS, at(10_000))).allowed).toBe(false);
    expect((await beginSignInAttempt(db(), 'walter', UNKNOWN_ADDRESS, at(9_000 + SLOW_INTERVAL_MS))).allowed).toBe(true);
  });

  it('never slows a known device down for an attacker who keeps the username at the slow-down', async () => {
    const device = newDeviceId();
    // The attacker, with no known address, guesses every 100 ms for a minute: from the 11th
    // guess on, one attempt per 30 seconds is left for everyone without a device cookie...
    let allowed = 0;
    for (let ms = 0; ms < 60_000; ms += 100) {
      if ((await beginSignInAttempt(db(), 'olivia', UNKNOWN_ADDRESS, at(ms))).allowed) allowed++;
    }
    expect(allowed).toBe(PER_CLIENT + 1);
    expect((await beginSignInAttempt(db(), 'olivia', UNKNOWN_ADDRESS, at(60_050))).allowed).toBe(false);
    // ...but olivia's own browser signs in at once, every time.
    for (let i = 0; i < 3; i++) {
      const attempt = await beginSignInAttempt(db(), 'olivia', UNKNOWN_ADDRESS, at(60_050 + i), device);
      if (!attempt.allowed) throw new Error('the known device was refused');
      await signInSucceeded(db(), attempt);
    }
    // Its attempts are its own: they do not count towards the per-user slow-down.
    const keys = await db().select({ key: signInFailures.key }).from(signInFailures).where(like(signInFailures.key, 'olivia|%'));
    expect(new Set(keys.map((row) => row.key))).toEqual(new Set(['olivia|*']));
  });

  it('never slows a known device down behind a trusted proxy either, beyond 50 from many addresses', async () => {
    for (let i = 0; i < PER_USER + 5; i++) await beginSignInAttempt(db(), 'peggy', `10.3.0.${i}`, at(i));
    expect((await beginSignInAttempt(db(), 'peggy', '10.3.1.1', at(PER_USER + 10))).allowed).toBe(false);
    expect((await beginSignInAttempt(db(), 'peggy', '10.3.1.1', at(PER_USER + 10), newDeviceId())).allowed).toBe(true);
  });

  it('limits a known device itself to 10 attempts in the window, and only that device', async () => {
    const device = newDeviceId();
    for (let i = 0; i < PER_CLIENT; i++) {
      expect((await beginSignInAttempt(db(), 'quentin', UNKNOWN_ADDRESS, at(i), device)).allowed).toBe(true);
    }
    expect(await beginSignInAttempt(db(), 'quentin', UNKNOWN_ADDRESS, at(PER_CLIENT), device)).toEqual({ allowed: false, retryAfterSeconds: 15 * 60 });
    // Nor does another address help a device that is out of attempts.
    expect((await beginSignInAttempt(db(), 'quentin', '10.4.0.1', at(PER_CLIENT), device)).allowed).toBe(false);
    expect(await db().select({ key: signInFailures.key }).from(signInFailures).where(like(signInFailures.key, 'quentin|%'))).toHaveLength(PER_CLIENT);
    // Another device of the same user, and attempts without a device, are not affected.
    expect((await beginSignInAttempt(db(), 'quentin', UNKNOWN_ADDRESS, at(PER_CLIENT), newDeviceId())).allowed).toBe(true);
    expect((await beginSignInAttempt(db(), 'quentin', UNKNOWN_ADDRESS, at(PER_CLIENT))).allowed).toBe(true);
    // The same device for another user is another bucket.
    expect((await beginSignInAttempt(db(), 'rupert', UNKNOWN_ADDRESS, at(PER_CLIENT), device)).allowed).toBe(true);
    expect((await beginSignInAttempt(db(), 'quentin', UNKNOWN_ADDRESS, at(WINDOW_MS + 1), device)).allowed).toBe(true);
  });

  it('prunes records that have left the window', async () => {
    await fail('pruned', '10.0.0.5', 0);
    await fail('pruned', '10.0.0.5', WINDOW_MS);
    const rows = async () => (await db().select({ n: count() }).from(signInFailures).where(like(signInFailures.key, 'pruned|%')))[0].n;
    expect(await rows()).toBe(4);
    await pruneSignInFailures(db(), at(WINDOW_MS + 1));
    expect(await rows()).toBe(2);
  });
});
