/** What a form just did, said once it is done (the counterpart of ActionError). */
export function FormStatus({ children }: { children: React.ReactNode }) {
  return (
    <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
      {children}
    </p>
  );
}
