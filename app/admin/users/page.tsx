import type { Metadata } from 'next';
import { CreateTokenForm } from '@/components/admin/create-token-form';
import { CreateUserForm } from '@/components/admin/create-user-form';
import { RoleSelect } from '@/components/admin/role-select';
import { RoleRequired } from '@/components/auth/role-required';
import { RelativeTime } from '@/components/plan/relative-time';
import { DataTable, type DataColumn, type DataRow } from '@/components/ui/data-table';
import { hasRole } from '@/lib/auth/roles';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { listUsers, type UserSummary } from '@/lib/server/auth/users';
import { getDatabase } from '@/lib/server/platform/db/connection';

export const metadata: Metadata = { title: 'Users' };

const USER_COLUMNS: DataColumn[] = [
  { id: 'username', header: 'Username', sortable: true, rowHeader: true, className: 'font-medium text-slate-900' },
  { id: 'role', header: 'Role', sortable: true },
  { id: 'created', header: 'Created', sortable: true, className: 'text-slate-600' },
];

/** A user's row: who (and whether it is the viewer, or a service account), their role to change, since when. */
function userRow(u: UserSummary, viewer: string, now: number): DataRow {
  return {
    key: u.id,
    sortValues: { username: u.username, role: u.role, created: Date.parse(u.created_at) },
    cells: [
      <>
        {u.username}
        {u.username === viewer && <span className="ml-2 text-xs font-normal text-slate-500">(you)</span>}
        {u.service && (
          <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-normal text-slate-600" title="No password; API tokens only; never decides on a plan">
            service
          </span>
        )}
      </>,
      // Keyed on the role so a refresh after a change resets the select to the stored value.
      <RoleSelect key={u.role} username={u.username} role={u.role} />,
      <RelativeTime key="created" iso={u.created_at} now={now} />,
    ],
  };
}

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
      <DataTable
        caption="Users, by username"
        columns={USER_COLUMNS}
        empty="No users yet."
        rows={users.map((u) => userRow(u, user.username, now))}
      />
      <div className="grid items-start gap-6 md:grid-cols-2">
        <CreateUserForm />
        <CreateTokenForm currentUsername={user.username} />
      </div>
    </div>
  );
}
