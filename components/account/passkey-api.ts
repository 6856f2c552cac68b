import { passkeyStatusAction } from '@/app/account/actions';

// The browser's read of whether the signed-in person can sign decisions with a passkey:
// one query key, so adding or revoking a key on /account updates every decision button.

export const PASSKEYS_KEY = ['passkeys'] as const;

export interface PasskeyStatus {
  /** Live passkeys for this host. */
  passkeys: number;
  /** PLANGATE_REQUIRE_SIGNED_APPROVALS is on: unsigned decisions are refused. */
  required: boolean;
}

export async function fetchPasskeyStatus(): Promise<PasskeyStatus> {
  const result = await passkeyStatusAction({});
  if (!result.ok) throw new Error(result.error.message);
  return result.data;
}
