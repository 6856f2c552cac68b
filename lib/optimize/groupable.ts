import { topologicalOrder, type GraphIndex } from '@/lib/graph';

/**
 * Why a plan's tasks cannot be grouped into SubGraphs, or null: both optimisers need a DAG
 * of unique, present ids. Shared by the rule-based optimiser's compute job and the LLM path.
 */
export function groupingRefusal(index: GraphIndex): string | null {
  if (!topologicalOrder(index) || index.missing.length || index.duplicates.length) {
    return 'The plan has a cycle, a missing dependency or a repeated task id; fix the validation errors before grouping it';
  }
  return null;
}
