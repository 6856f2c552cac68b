// Shared Tailwind classes of form controls.

export const INPUT =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500';

export const TEXTAREA =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-xs shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500';

export const PRIMARY_BUTTON =
  'rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 disabled:opacity-60';

export const SECONDARY_BUTTON =
  'rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50 disabled:opacity-60';

/** The editor's compact buttons: toolbar and side panels. */
export const SMALL_BUTTON =
  'rounded border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700 shadow-sm hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-40';

export const SMALL_PRIMARY_BUTTON =
  'rounded-md bg-brand-600 px-3 py-1.5 text-xs font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50';

/** The inputs of the editor's side panels, beside a PanelField's small label. */
export const PANEL_INPUT = 'rounded border border-slate-300 px-2 py-1 text-sm';
