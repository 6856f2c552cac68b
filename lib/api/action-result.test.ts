import { describe, expect, it } from 'vitest';
import { dataOrThrow, resultOf } from './action-result';

// How the browser reads an answer of the API: as a server action's result.

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('an API answer read as a result', () => {
  it('is its body when the request succeeded', async () => {
    const result = await resultOf<{ id: string }>(json(200, { id: 'p1' }), 'The plan could not be read');
    expect(result).toEqual({ ok: true, data: { id: 'p1' } });
    expect(dataOrThrow(result)).toEqual({ id: 'p1' });
  });

  it("is the API's own error when it sent one, with its code and details", async () => {
    const error = { code: 'validation_failed', message: 'limit: only one value is allowed', details: [{ path: 'limit', message: 'repeated' }] };
    const result = await resultOf(json(400, { error }), 'The list could not be read');
    expect(result).toEqual({ ok: false, error });
    expect(() => dataOrThrow(result)).toThrow('limit: only one value is allowed');
  });

  it('names what failed and the HTTP status when the body is not an API error', async () => {
    const result = await resultOf(new Response('<html>Bad gateway</html>', { status: 502 }), 'The inbox could not be loaded');
    expect(result).toEqual({ ok: false, error: { code: 'internal', message: 'The inbox could not be loaded (HTTP 502)' } });
    expect(await resultOf(json(500, { error: 'a bare string' }), 'The dry run could not be made')).toEqual({ ok: false, error: { code: 'internal', message: 'The dry run could not be made (HTTP 500)' } });
  });
});
