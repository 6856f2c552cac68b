// The timeline's sizes, shared by the chart and its parts: rows, axis, the name column, how
// much is drawn at once and how far it zooms.

export const ROW = 28;
export const AXIS = 26;
export const LABEL_W = 84;
/** Bars drawn at once; beyond this the chart asks to zoom in. */
export const MAX_DRAWN = 3000;
/** Bars narrower than this (px) are drawn as one band per run of them, until zoomed in. */
export const MIN_BAR = 3;
export const MAX_ZOOM = 4096;
/** The widest the drawn timeline gets, in px: browsers stop laying out far beyond this. */
export const MAX_WIDTH = 4_000_000;
export const MAX_VISIBLE_HEIGHT = 420;
/** A skipped task has no duration: it is drawn as a small square at the time it is skipped. */
export const SKIPPED_W = 10;
const CHAR_W = 6.2;

/** The part of the chart on screen, in px of the scrolling box. */
export interface View {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A bar's name cut to fit the bar, or null where not even three characters fit. */
export function truncate(text: string, px: number): string | null {
  const chars = Math.floor((px - 8) / CHAR_W);
  if (chars < 3) return null;
  return text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`;
}
