import { SMALL_BUTTON } from '@/components/form/styles';
import { MAX_DRAWN } from './gantt-geometry';

/** Zoom in, out and back to fit, with what the zoom is and how to pan, and a word when not every bar is drawn. */
export function GanttZoomBar({ zoom, canZoomIn, capped, onZoom, onFit }: { zoom: number; canZoomIn: boolean; capped: boolean; onZoom: (factor: number) => void; onFit: () => void }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
      <div role="group" aria-label="Timeline zoom" className="flex gap-1">
        <button type="button" className={SMALL_BUTTON} onClick={() => onZoom(2)} disabled={!canZoomIn}>
          Zoom in
        </button>
        <button type="button" className={SMALL_BUTTON} onClick={() => onZoom(0.5)} disabled={zoom <= 1}>
          Zoom out
        </button>
        <button type="button" className={SMALL_BUTTON} onClick={onFit} disabled={zoom <= 1}>
          Fit
        </button>
      </div>
      <span aria-live="polite">{zoom > 1 ? `${Math.round(zoom * 10) / 10}× · drag or scroll sideways to pan` : 'Ctrl+wheel or the buttons zoom'}</span>
      {capped && <span className="text-amber-800">Drawing {MAX_DRAWN.toLocaleString('en')} bars here; zoom in to see every bar.</span>}
    </div>
  );
}
