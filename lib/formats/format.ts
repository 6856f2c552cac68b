import type { JobInput, TaskDataInput } from '@/lib/plan';
import type { CarriedFields, ExportedDocument, FieldLoss } from './export-drops';

// The contract every plan format adapter meets: a pure parse to seed 000's TaskData
// (plus the job and view hints the format carries) and a pure serialize back.

export const FORMAT_IDS = ['taskdata', 'planner-agent', 'state-calls', 'cortex-xml', 'agentscope', 'wfformat'] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

/** Names for menus; kept here so the UI need not load the adapters themselves. */
export const FORMAT_LABELS: Record<FormatId, string> = {
  taskdata: 'TaskData JSON (seed 000)',
  'planner-agent': 'Planner Agent plan (seed 001)',
  'state-calls': 'State data-flow calls (seed 002)',
  'cortex-xml': 'Cortex XML plan (seed 003)',
  agentscope: 'AgentScope task list (seed 004)',
  wfformat: 'WfFormat workflow (WfCommons)',
};

export interface ParsedPlan {
  plan: TaskDataInput;
  job?: JobInput;
  /** A title the format itself carries (an objective, a workflow name), if any. */
  title?: string;
  /** Saved node positions, for formats that carry them. */
  positions?: Record<string, { x: number; y: number }>;
}

export interface SerializedPlan {
  text: string;
  /** What the format cannot carry, said plainly ("task t3: convertor_code"), so nothing is lost silently. */
  dropped: string[];
  /** The fields those lines concern, for a client (and the round-trip contract test) to check. */
  lost: FieldLoss[];
}

export interface SerializeOptions {
  /** The clock for what a format stamps with the time of export; tests pass a fixed one. */
  now?: () => Date;
}

export interface PlanFormat {
  id: FormatId;
  label: string;
  mediaType: string;
  extension: string;
  /** A cheap look at the text: does it seem to be this format? Never throws. */
  detect(text: string): boolean;
  /** Throws FormatError naming the line or path of the first problem. */
  parse(text: string): ParsedPlan;
  /** What of a plan this format writes and reads back; whatever is not here is reported as dropped. */
  carries: CarriedFields;
  serialize(doc: ExportedDocument, options?: SerializeOptions): SerializedPlan;
}

export class FormatError extends Error {
  constructor(
    readonly format: FormatId | 'unknown',
    /** Where the problem is: "line 12", "steps[3].depends_on[0]", or "" for the whole text. */
    readonly location: string,
    readonly detail: string,
  ) {
    super(`${format}: ${location ? `${location}: ` : ''}${detail}`);
    this.name = 'FormatError';
  }
}

/** How an import refused for a FormatError is answered (a 400): the server's words and a compute worker's are these. */
export function importFailure(error: FormatError): { message: string; details: Array<{ path: string; message: string }>; extra: { format: FormatId | 'unknown' } } {
  return {
    message: `Could not import as ${error.format === 'unknown' ? 'a plan' : error.format}: ${error.location ? `${error.location}: ` : ''}${error.detail}`,
    details: [{ path: error.location || '(file)', message: error.detail }],
    extra: { format: error.format },
  };
}
