'use server';

import { headers } from 'next/headers';
import { z } from 'zod';
import { PasskeyLabel, RegistrationResponse } from '@/lib/api/passkey-schemas';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { signedDecisionsRequired } from '@/lib/server/passkeys/decision-signatures';
import { listPasskeys, registerPasskey, registrationOptions, revokePasskey } from '@/lib/server/passkeys/passkey-service';
import { relyingPartyOf } from '@/lib/server/passkeys/relying-party';

// The account page's passkeys: register (two steps, around the browser's ceremony), revoke,
// and what the decision buttons need to know to offer signing.

const NoInput = z.strictObject({});

/** Whether the caller can sign decisions here (a live passkey for this host) and whether signing is required. */
export async function passkeyStatusAction(input: z.input<typeof NoInput> = {}) {
  return runAction('viewer', NoInput, input, async (_none, principal) => {
    const { db } = await getDatabase();
    const { rpId } = relyingPartyOf(await headers());
    const keys = await listPasskeys(db, principal.username);
    return { passkeys: keys.filter((key) => key.revoked_at === null && key.rp_id === rpId).length, required: signedDecisionsRequired() };
  });
}

/** Step one of adding a passkey: the options for navigator.credentials.create(). */
export async function passkeyRegistrationOptionsAction(input: z.input<typeof NoInput> = {}) {
  return runAction('viewer', NoInput, input, async (_none, principal) => {
    const { db } = await getDatabase();
    return registrationOptions(db, principal, relyingPartyOf(await headers()));
  });
}

const RegisterInput = z.strictObject({ response: RegistrationResponse, label: PasskeyLabel });

/** Step two: the authenticator's answer, verified and stored. */
export async function registerPasskeyAction(input: z.input<typeof RegisterInput>) {
  return runAction('viewer', RegisterInput, input, async ({ response, label }, principal) => {
    const { db } = await getDatabase();
    return registerPasskey(db, principal, relyingPartyOf(await headers()), response, label);
  });
}

const RevokeInput = z.strictObject({ kid: z.string().min(1).max(1400) });

/** Revokes one of the caller's passkeys (an admin may revoke anyone's). */
export async function revokePasskeyAction(input: z.input<typeof RevokeInput>) {
  return runAction('viewer', RevokeInput, input, async ({ kid }, principal) => {
    const { db } = await getDatabase();
    return revokePasskey(db, principal, kid);
  });
}
