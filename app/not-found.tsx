import Link from '@/components/ui/link';

export default function NotFound() {
  return (
    <div className="mx-auto max-w-md px-6 py-16 text-center">
      <p className="text-sm font-semibold text-brand-600">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">Not found</h1>
      <p className="mt-2 text-slate-600">This link names no plan or page here. It may have been mistyped.</p>
      <Link href="/" className="mt-6 inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
        Back to plans
      </Link>
    </div>
  );
}
