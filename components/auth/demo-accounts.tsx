import type { Role } from '@/lib/auth/roles';
import { TableView, type DataColumn } from '@/components/ui/table-view';

export interface DemoAccount {
  username: string;
  password: string;
  role: Role;
}

const COLUMNS: DataColumn[] = [
  { id: 'username', header: 'Username', className: 'font-mono' },
  { id: 'password', header: 'Password', className: 'font-mono' },
  { id: 'role', header: 'Role' },
];

/**
 * The demo accounts of a local demo database, shown on the sign-in page only when demo
 * users are on (their passwords are published in the README anyway).
 */
export function DemoAccounts({ accounts }: { accounts: ReadonlyArray<DemoAccount> }) {
  if (accounts.length === 0) return null;
  return (
    <section aria-labelledby="demo-accounts-heading" className="mt-8 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
      <h2 id="demo-accounts-heading" className="font-semibold text-slate-900">
        Demo accounts
      </h2>
      <p className="mt-1 text-xs text-slate-600">
        This is a local demo database, so these accounts exist with their published passwords (unless changed since). A real deployment never has them.
      </p>
      <TableView
        variant="plain"
        className="mt-3"
        label="Demo accounts"
        columns={COLUMNS}
        rows={accounts.map((account) => ({ key: account.username, cells: [account.username, account.password, account.role] }))}
      />
    </section>
  );
}
