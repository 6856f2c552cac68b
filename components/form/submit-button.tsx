import { PRIMARY_BUTTON } from './styles';

/** A form's submit button, disabled and relabelled while the form's action runs. */
export function SubmitButton({
  pending,
  pendingLabel,
  disabled,
  children,
  className = PRIMARY_BUTTON,
  ...rest
}: Omit<React.ComponentProps<'button'>, 'type'> & { pending: boolean; pendingLabel: string }) {
  return (
    <button type="submit" disabled={pending || disabled} className={className} {...rest}>
      {pending ? pendingLabel : children}
    </button>
  );
}
