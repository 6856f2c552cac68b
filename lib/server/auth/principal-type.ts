import 'server-only';
import type { Role } from '@/lib/auth/roles';

// Who is calling, as every service sees it: its own module, so that the token store (which
// makes principals) and the request authentication (which uses the token store) do not
// import each other.

/** Who is asking: a signed-in operator (session cookie) or automation (Bearer token). */
export interface Principal {
  id: string;
  username: string;
  role: Role;
  via: 'session' | 'token';
  /**
   * A service account (automation, PLANGATE_ADMIN_TOKEN's `plangate-admin`): no password,
   * tokens only, and never a decision on a plan. From the user row, for sessions and tokens.
   */
  service: boolean;
}
