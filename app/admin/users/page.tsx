import type { Metadata } from 'next';
import { CreateTokenForm } from '@/components/admin/create-token-form';
import { CreateUserForm } from '@/components/admin/create-user-form';
import { RoleSelect } from '@/components/admin/role-select';
import { RoleRequired } from '@/components/auth/role-required';
import { RelativeTime } from '@/components/plan/relative-time';
import { hasRole } from '@/lib/auth/roles';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { listUsers } from '@/lib/server/auth/users';
import { getDatabase } from '@/lib/server/db/connection';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage({ searchParams }: PageProps<'/admin/users'>) {
  const user = await requirePageUser('/admin/users', searchParams);
  if (!hasRole(user.role, 'admin')) return <RoleRequired role="admin" username={user.username} current={user.role} />;
  const { db } = await getDatabase();
  const users = await listUsers(db);
  // eslint-disable-next-line react-hooks/purity -- rendered once per request; "now" is the request time
  const now = Date.now();
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-6 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Users</h1>
        <p className="mt-1 text-sm text-slate-600">
          Who may read, edit and approve plans. A role change takes effect on the user&apos;s next request. Service accounts
          are automation: they have no password, use API tokens an admin creates, and never decide on a plan.
        </p>
      </div>
      <div className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Users, by username</caption>
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">Username</th>
              <th scope="col" className="px-4 py-3 font-medium">Role</th>
              <th scope="col" className="px-4 py-3 font-medium">Created</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {users.map((u) => (
              <tr key={u.id}>
                <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                  {u.username}
                  {u.username === user.username && <span className="ml-2 text-xs font-normal text-slate-500">(you)</span>}
                  {u.service && (
                    <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-normal text-slate-600" title="No password; API tokens only; never decides on a plan">
                      service
                    </span>
                  )}
                </th>
                <td className="px-4 py-3">
                  {/* Keyed on the role so a refresh after a change resets the select to the stored value. */}
                  <RoleSelect key={u.role} username={u.username} role={u.role} />
                </td>
                <td className="px-4 py-3 text-slate-600">
                  <RelativeTime iso={u.created_at} now={now} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="grid items-start gap-6 md:grid-cols-2">
        <CreateUserForm />
        <CreateTokenForm currentUsername={user.username} />
      </div>
    </div>
  );
}
