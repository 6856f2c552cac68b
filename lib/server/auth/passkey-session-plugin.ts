import 'server-only';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { z } from 'zod';

/**
 * Starts a session for a person whose passkey the caller has just verified
 * (lib/server/passkeys/passkey-sign-in.ts). Server-only: better-auth never puts it on the
 * HTTP router, so it is reachable only from the sign-in action, after the verification.
 */
export const passkeySession = () =>
  ({
    id: 'plangate-passkey-session',
    endpoints: {
      startPasskeySession: createAuthEndpoint.serverOnly({ method: 'POST', body: z.object({ username: z.string().min(1).max(64) }) }, async (ctx) => {
        const user = await ctx.context.adapter.findOne<{ id: string }>({ model: 'user', where: [{ field: 'username', value: ctx.body.username }] });
        if (!user) throw new APIError('UNAUTHORIZED', { message: 'No such account' });
        const session = await ctx.context.internalAdapter.createSession(user.id);
        if (!session) throw new APIError('INTERNAL_SERVER_ERROR', { message: 'The session was not created' });
        await setSessionCookie(ctx, { session, user: user as never });
        return ctx.json({ ok: true });
      }),
    },
  }) satisfies BetterAuthPlugin;
