'use client';

import { useId } from 'react';
import { PostForm } from './post-form';

/** A form in a card of its own, named by its heading (see PostForm for how it submits). */
export function CardForm({
  title,
  onSubmit,
  children,
}: {
  title: string;
  onSubmit: (data: FormData, form: HTMLFormElement) => void;
  children: React.ReactNode;
}) {
  const headingId = useId();
  return (
    <PostForm aria-labelledby={headingId} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" onSubmit={onSubmit}>
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </PostForm>
  );
}
