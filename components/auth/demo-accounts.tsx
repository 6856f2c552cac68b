import type { Role } from '@/lib/auth/roles';

export interface DemoAccount {
  username: string;
  password: string;
  role: Role;
}

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
      <table className="mt-3 w-full text-left text-xs">
        <thead>
          <tr className="text-slate-600">
            <th scope="col" className="py-1 pr-2 font-medium">Username</th>
            <th scope="col" className="py-1 pr-2 font-medium">Password</th>
            <th scope="col" className="py-1 font-medium">Role</th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((account) => (
            <tr key={account.username} className="border-t border-slate-200">
              <td className="py-1 pr-2 font-mono">{account.username}</td>
              <td className="py-1 pr-2 font-mono">{account.password}</td>
              <td className="py-1">{account.role}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
