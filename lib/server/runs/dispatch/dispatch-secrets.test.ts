import { describe, expect, it } from 'vitest';
import { dispatchSecret, endpointSecretProblems, secretNameProblem, usableSecret } from './dispatch-secrets';

describe('which variables an endpoint may name', () => {
  const env = { PLANGATE_DISPATCH_SECRETS: ' OPENAI_API_KEY , PLANGATE_AUDIT_KEY,BETTER_AUTH_SECRET,DATABASE_URL,LLM_API_KEY,BEHAVIOR_CONTROLLER_TOKEN', OPENAI_API_KEY: 'sk-1', PLANGATE_AUDIT_KEY: 'audit' };

  it("admits a listed variable, and never one of Plangate's own, listed or not", () => {
    expect(secretNameProblem('OPENAI_API_KEY', env)).toBeNull();
    expect(dispatchSecret('OPENAI_API_KEY', 'api_key_env', 'gpt', env)).toBe('sk-1');
    for (const own of ['PLANGATE_AUDIT_KEY', 'PLANGATE_ADMIN_TOKEN', 'BETTER_AUTH_SECRET', 'DATABASE_URL', 'TEST_DATABASE_URL', 'LLM_API_KEY', 'BEHAVIOR_CONTROLLER_TOKEN']) {
      expect(secretNameProblem(own, env), own).toContain("one of Plangate's own secrets");
      expect(() => dispatchSecret(own, 'token_env', 'r', env), own).toThrow("one of Plangate's own secrets");
      expect(usableSecret(own, env), own).toBeNull();
    }
  });

  it('refuses an unlisted variable, by the rule, whether or not it has a value', () => {
    expect(secretNameProblem('HOME', env)).toBe("HOME is not in PLANGATE_DISPATCH_SECRETS, the operator's list of variables endpoints may use");
    const said = (extra: Record<string, string>) => {
      try {
        dispatchSecret('PORT', 'secret_env', 'hook', { ...env, ...extra });
      } catch (error) {
        return (error as Error).message;
      }
      return 'no refusal';
    };
    expect(said({ PORT: '3000' })).toBe(said({}));
    expect(said({})).toContain('PORT, which is not a usable secret');
    expect(endpointSecretProblems({ protocol: 'webhook', url: 'https://x.example/', secret_env: 'PORT' }, env)).toEqual([{ field: 'secret_env', problem: expect.stringContaining('PORT is not in') }]);
    expect(endpointSecretProblems({ protocol: 'mcp', url: 'https://x.example/' }, env)).toEqual([]);
  });
});
