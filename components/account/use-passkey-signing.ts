'use client';

import { useQuery } from '@tanstack/react-query';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useState } from 'react';
import type { ActionResult } from '@/lib/api/action-result';
import type { DecisionSignature, SignedDecision } from '@/lib/api/passkey-schemas';
import { PASSKEYS_KEY, fetchPasskeyStatus } from './passkey-api';

/** What signing gave: the signature to send with the decision, none (not signing), or why it failed. */
export type SigningOutcome = { ok: true; signature?: DecisionSignature } | { ok: false; message: string };

type Prepare = () => Promise<ActionResult<{ signed: SignedDecision; options: PublicKeyCredentialRequestOptionsJSON }>>;

function refusalOf(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey did not sign (cancelled, timed out or not verified). Nothing was decided.';
  return `The passkey could not sign: ${error instanceof Error ? error.message : String(error)}. Nothing was decided.`;
}

/**
 * Signing a decision with a passkey, for the decision buttons: offered (on by default) to
 * whoever has a passkey here, and always on while the server requires signed decisions.
 * `sign` asks the server what the decision binds, has the authenticator sign its hash, and
 * gives back the signature to send with the decision.
 */
export function usePasskeySigning() {
  const status = useQuery({ queryKey: PASSKEYS_KEY, queryFn: fetchPasskeyStatus, staleTime: 30_000 });
  const [chosen, setChosen] = useState(true);
  const [signing, setSigning] = useState(false);
  const available = (status.data?.passkeys ?? 0) > 0;
  const required = status.data?.required ?? false;
  const enabled = required || (available && chosen);

  const sign = async (prepare: Prepare): Promise<SigningOutcome> => {
    if (!enabled) return { ok: true };
    if (!available) return { ok: false, message: 'Decisions here must be signed with a passkey, and you have none: add one on your account page. Nothing was decided.' };
    setSigning(true);
    try {
      const prepared = await prepare();
      if (!prepared.ok) return { ok: false, message: prepared.error.message };
      const assertion = await startAuthentication({ optionsJSON: prepared.data.options });
      const { authenticatorData, clientDataJSON, signature } = assertion.response;
      return { ok: true, signature: { kid: assertion.id, signed: prepared.data.signed, webauthn: { authenticatorData, clientDataJSON, signature } } };
    } catch (error) {
      return { ok: false, message: refusalOf(error) };
    } finally {
      setSigning(false);
    }
  };

  return { available, required, enabled, chosen, setChosen, signing, sign };
}

export type PasskeySigning = ReturnType<typeof usePasskeySigning>;
