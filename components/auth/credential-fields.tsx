import { INPUT } from '@/components/form/styles';

type InputProps = React.ComponentProps<'input'>;

/**
 * The username and password of every sign-in form, named and completed alike so password
 * managers fill them anywhere. Extra props go to each input (a ref, a value, autoFocus).
 */
export function CredentialFields({ username, password }: { username?: InputProps; password?: InputProps }) {
  return (
    <>
      <label className="block text-sm font-medium text-slate-700">
        Username
        <input name="username" autoComplete="username" required className={INPUT} {...username} />
      </label>
      <label className="block text-sm font-medium text-slate-700">
        Password
        <input name="password" type="password" autoComplete="current-password" required className={INPUT} {...password} />
      </label>
    </>
  );
}
