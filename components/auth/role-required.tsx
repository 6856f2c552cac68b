import { ROLE_DUTIES, type Role } from '@/lib/auth/roles';

/** What a signed-in user sees on a page their role does not open. */
export function RoleRequired({ role, username, current }: { role: Role; username: string; current: Role }) {
  return (
    <div className="mx-auto max-w-xl px-6 py-16">
      <h1 className="text-2xl font-semibold tracking-tight">You need the {role} role</h1>
      <p className="mt-2 text-sm text-slate-600">
        An {role} {ROLE_DUTIES[role]}. You are signed in as {username}, with the {current} role. Ask an admin to change it.
      </p>
    </div>
  );
}
