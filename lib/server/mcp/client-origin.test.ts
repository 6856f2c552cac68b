import { describe, expect, it } from 'vitest';
import { clientOrigin } from './client-origin';

// The links an agent is given (the review page, the run page) must be ones it can follow:
// the host it addressed, or the one a proxy says the client addressed, never the server's own.

const at = (headers: Record<string, string>) => new Request('http://localhost:3000/api/mcp', { method: 'POST', headers });

describe('the origin an agent reached Plangate at', () => {
  it('is the Host header, not the URL Next builds from its own hostname', () => {
    expect(clientOrigin(at({ host: '127.0.0.1:3400' }))).toBe('http://127.0.0.1:3400');
    expect(clientOrigin(at({ host: '[::1]:3400' }))).toBe('http://[::1]:3400');
  });

  it("is a proxy's forwarded host and protocol when it sends them", () => {
    expect(clientOrigin(at({ host: 'app:3000', 'x-forwarded-host': 'plans.example.com, inner', 'x-forwarded-proto': 'https' }))).toBe('https://plans.example.com');
  });

  it('falls back to the URL for a host or protocol that makes no link', () => {
    expect(clientOrigin(at({ host: 'evil.example/path?x=' }))).toBe('http://localhost:3000');
    expect(clientOrigin(at({ host: 'plans.example.com', 'x-forwarded-proto': 'javascript' }))).toBe('http://localhost:3000');
    expect(clientOrigin(at({ host: 'user@plans.example.com' }))).toBe('http://localhost:3000');
    expect(clientOrigin(at({ host: 'plans.example.com:99999' }))).toBe('http://localhost:3000');
  });
});
