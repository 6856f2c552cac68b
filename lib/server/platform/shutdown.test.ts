import { describe, expect, it } from 'vitest';
import { drainAndExit, inFlight, requestsInFlight } from './shutdown';

// A stopping server: requests under way finish first, then the database closes, then the
// process exits; and it exits even when requests never finish or closing hangs (SIGTERM
// under load). The bounds are small here; their figures are reported by bench-server.

describe('shutdown', () => {
  it('counts a request as in flight while its handler runs, failed or not', async () => {
    const before = requestsInFlight();
    let finish!: () => void;
    const running = inFlight(() => new Promise<void>((resolve) => (finish = resolve)));
    const failing = inFlight(() => Promise.reject(new Error('no'))).catch(() => 'failed');
    expect(requestsInFlight()).toBe(before + 2);
    expect(await failing).toBe('failed');
    finish();
    await running;
    expect(requestsInFlight()).toBe(before);
  });

  it('lets the requests under way finish, then closes, then exits', async () => {
    const steps: string[] = [];
    let pending = 1;
    setTimeout(() => {
      steps.push('request finished');
      pending = 0;
    }, 30);
    await drainAndExit({ inFlight: () => pending, close: async () => void steps.push('closed'), exit: () => steps.push('exited'), drainMs: 10_000, pollMs: 5 });
    expect(steps).toEqual(['request finished', 'closed', 'exited']);
  });

  it('exits when requests never finish and closing hangs or fails', async () => {
    const steps: string[] = [];
    await drainAndExit({ inFlight: () => 3, close: () => new Promise(() => steps.push('closing')), exit: () => steps.push('exited'), drainMs: 20, closeMs: 20, pollMs: 5 });
    expect(steps).toEqual(['closing', 'exited']);
    await drainAndExit({ inFlight: () => 0, close: () => Promise.reject(new Error('already closed')), exit: () => steps.push('exited again'), drainMs: 20, closeMs: 10_000 });
    expect(steps).toContain('exited again');
  });
});
