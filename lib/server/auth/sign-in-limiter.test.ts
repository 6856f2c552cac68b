import { describe, expect, it } from 'vitest';
import { clearSignInFailures, recordSignInFailure, signInBlockedFor } from './sign-in-limiter';

describe('sign-in limiter', () => {
  it('blocks a username and address after ten failures for the rest of the window', () => {
    const start = 1_000_000;
    for (let i = 0; i < 10; i++) {
      expect(signInBlockedFor('mallet', '10.0.0.1', start + i)).toBe(0);
      recordSignInFailure('mallet', '10.0.0.1', start + i);
    }
    expect(signInBlockedFor('mallet', '10.0.0.1', start + 10)).toBe(15);
    expect(signInBlockedFor('mallet', '10.0.0.2', start + 10)).toBe(0);
    expect(signInBlockedFor('mallet', '10.0.0.1', start + 15 * 60 * 1000 + 10)).toBe(0);
  });

  it('forgets failures after a successful sign-in', () => {
    for (let i = 0; i < 10; i++) recordSignInFailure('trent', '10.0.0.3', 5_000);
    clearSignInFailures('trent', '10.0.0.3');
    expect(signInBlockedFor('trent', '10.0.0.3', 5_001)).toBe(0);
  });
});
