'use client';

import { useStoreApi, type Edge } from '@xyflow/react';
import { useEffect, useMemo, useState } from 'react';
import type { CanvasNode } from '@/lib/flow/plan-to-flow';
import { containsRect, idsWithin, visibleRect, windowAround, type Rect } from '@/lib/flow/view-window';

/**
 * On a big plan React Flow is given only the nodes in a window around the view, and only their
 * edges are drawn (lib/flow/view-window): given all of them, it drew and measured every one once,
 * and thousands of long dependencies crossing the screen made every drag frame cost hundreds of
 * ms. The window moves when the view leaves it or zooms well into it. A small plan is given whole.
 */
export function useViewWindow({ large, drawn, edgesWithin, dragging }: { large: boolean; drawn: CanvasNode[]; edgesWithin: (within: ReadonlySet<string> | null) => Edge[]; dragging: boolean }) {
  const rfStore = useStoreApi<CanvasNode, Edge>();
  const [windowRect, setWindowRect] = useState<Rect | null>(null);
  // Held still while a node is dragged: a new set of nodes mid-drag (the view auto-pans)
  // would put the dragged node back for a frame. It catches up when the drag ends.
  useEffect(() => {
    if (!large || dragging) return;
    let frame = 0;
    const check = () => {
      frame = 0;
      const { transform, width, height } = rfStore.getState();
      if (!width || !height) return;
      const view = visibleRect(transform, width, height);
      setWindowRect((known) => (known && containsRect(known, view) && view.width * 4 >= known.width ? known : windowAround(view)));
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(check);
    };
    schedule();
    const unsubscribe = rfStore.subscribe((state, before) => {
      if (state.transform !== before.transform || state.width !== before.width || state.height !== before.height) schedule();
    });
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [large, dragging, rfStore]);
  // Selected tasks stay given wherever they are, so a selection dragged or deleted is whole.
  const given = useMemo(() => {
    if (!large) return drawn;
    const near = windowRect ? idsWithin(drawn, windowRect) : null;
    return drawn.filter((node) => near?.has(node.id) || node.selected);
  }, [large, drawn, windowRect]);
  // The same set while the same nodes are given (a node moved, selected or edited), so their
  // edges are not looked for again. Ids are compared as one JSON text: a window holds a few hundred.
  const givenKey = large ? JSON.stringify(given.map((node) => node.id)) : null;
  const givenIds = useMemo(() => (givenKey === null ? null : new Set(JSON.parse(givenKey) as string[])), [givenKey]);
  const givenEdges = useMemo(() => edgesWithin(givenIds), [givenIds, edgesWithin]);
  return { nodes: given, edges: givenEdges };
}
