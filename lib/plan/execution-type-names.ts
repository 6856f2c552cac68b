// The four execution types' names, apart from the schema (./schema.ts) so that code drawing a
// plan (the editor's read-only preview, the overview) can know them without loading zod.

export const EXECUTION_TYPES = ['agent', 'tool', 'llm', 'dsl'] as const;
export type ExecutionType = (typeof EXECUTION_TYPES)[number];
