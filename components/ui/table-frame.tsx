import type { ReactNode, Ref, UIEventHandler } from 'react';
import { TABLE_STYLES, type TableVariant } from './table-styles';

export interface TableScroll {
  /** The most the table is tall before its rows scroll under the header (CSS length or px). */
  maxHeight: number | string;
  /** The scrolling region's name: it is focusable, so a keyboard can scroll it. */
  label: string;
}

/**
 * The box a table sits in. Without `scroll` it clips (overflow: clip is no scroll container, so the
 * sticky header stays at the top of the page's own scrolling); with it, the table scrolls in itself.
 */
export function TableFrame({
  variant,
  scroll,
  className,
  ref,
  onScroll,
  children,
}: {
  variant: TableVariant;
  scroll?: TableScroll;
  className?: string;
  ref?: Ref<HTMLDivElement>;
  onScroll?: UIEventHandler<HTMLDivElement>;
  children: ReactNode;
}) {
  const frame = `${TABLE_STYLES[variant].frame} ${className ?? ''}`;
  if (!scroll) return <div className={`overflow-clip ${frame}`}>{children}</div>;
  return (
    <div ref={ref} role="region" aria-label={scroll.label} tabIndex={0} className={`overflow-auto ${frame}`} style={{ maxHeight: scroll.maxHeight }} onScroll={onScroll}>
      {children}
    </div>
  );
}
