'use client';

/**
 * A form that posts when clicked before hydration (POST keeps the fields out of the URL and
 * the logs) and, once hydrated, hands its fields to `onSubmit` instead of being a form
 * action: React resets a form after its action runs, which would throw away what was typed
 * when the server refuses it.
 */
export function PostForm({
  onSubmit,
  ...rest
}: Omit<React.ComponentProps<'form'>, 'onSubmit' | 'method' | 'action'> & { onSubmit: (data: FormData, form: HTMLFormElement) => void }) {
  return (
    <form
      method="post"
      {...rest}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(new FormData(event.currentTarget), event.currentTarget);
      }}
    />
  );
}
