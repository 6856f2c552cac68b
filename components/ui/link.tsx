'use client';

import NextLink, { useLinkStatus } from 'next/link';
import { useState, type ComponentProps } from 'react';

/**
 * The app's links: Next's `<Link>`, prefetching a page when the pointer or the keyboard focus
 * comes to its link rather than as soon as the link is in view. Every page here is dynamic (it
 * depends on who is signed in), so Next's default made the server render each visible link's
 * page ahead: about 26 renders, each with its session and database reads, for one page view
 * of the plan list or a plan. A link someone is about to follow is still fetched before the click.
 * `prefetch={false}` keeps a link from prefetching at all.
 */
export default function Link({ prefetch, onMouseEnter, onFocus, children, ...props }: ComponentProps<typeof NextLink>) {
  const [wanted, setWanted] = useState(false);
  return (
    <NextLink
      {...props}
      prefetch={prefetch === false || !wanted ? false : prefetch}
      onMouseEnter={(event) => {
        setWanted(true);
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        setWanted(true);
        onFocus?.(event);
      }}
    >
      {children}
      <Pending />
    </NextLink>
  );
}

/**
 * A spinner after the link's content while the page it leads to loads. Pages without a loading
 * skeleton (the plan editor's: it would hold the page back) show nothing else between the click
 * and the page. Hidden from assistive technology: the route announcer reads the new page.
 */
function Pending() {
  const { pending } = useLinkStatus();
  if (!pending) return null;
  return <span aria-hidden="true" className="link-pending ml-1.5 inline-block size-3 rounded-full border-2 border-current border-t-transparent align-[-2px]" />;
}
