import { agentScopeFormat } from './agentscope';
import { cortexXmlFormat } from './cortex-xml';
import type { FormatId, PlanFormat } from './format';
import { plannerAgentFormat } from './planner-agent';
import { stateCallsFormat } from './state-calls';
import { taskDataFormat } from './taskdata';
import { wfFormat } from './wfformat-format';

/** In detection order: the most distinctive shapes first, the native catch-all last. */
export const FORMATS: readonly PlanFormat[] = [cortexXmlFormat, wfFormat, plannerAgentFormat, stateCallsFormat, agentScopeFormat, taskDataFormat];

export function formatById(id: FormatId): PlanFormat {
  const format = FORMATS.find((f) => f.id === id);
  if (!format) throw new Error(`formatById: unknown format "${id}"`);
  return format;
}

export function detectFormat(text: string): PlanFormat | null {
  return FORMATS.find((f) => f.detect(text)) ?? null;
}
