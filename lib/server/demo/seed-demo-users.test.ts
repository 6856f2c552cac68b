import { describe, expect, it, vi } from 'vitest';
import { demoUsersEnabled, isLoopbackHost } from './seed-demo-users';

describe('demo users', () => {
  it('exist only on the embedded database served on loopback', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(demoUsersEnabled('pglite', { NODE_ENV: 'test' })).toBe(true);
    expect(demoUsersEnabled('pglite', { NODE_ENV: 'test', HOST: '127.0.0.1' })).toBe(true);
    expect(demoUsersEnabled('pglite', { NODE_ENV: 'test', HOST: '::1' })).toBe(true);
    expect(demoUsersEnabled('postgres', { NODE_ENV: 'test' })).toBe(false);
    expect(demoUsersEnabled('pglite', { NODE_ENV: 'production' })).toBe(false);
    expect(demoUsersEnabled('pglite', { NODE_ENV: 'production', PLANGATE_DEMO_USERS: 'on' })).toBe(true);
    for (const HOST of ['0.0.0.0', '::', '10.0.0.5', 'plangate.example']) {
      expect(demoUsersEnabled('pglite', { NODE_ENV: 'test', HOST }), HOST).toBe(false);
      expect(demoUsersEnabled('pglite', { NODE_ENV: 'production', PLANGATE_DEMO_USERS: 'on', HOST }), HOST).toBe(false);
    }
    expect([isLoopbackHost(undefined), isLoopbackHost('localhost'), isLoopbackHost('127.1.2.3'), isLoopbackHost('128.0.0.1')]).toEqual([true, true, true, false]);
    vi.restoreAllMocks();
  });
});
