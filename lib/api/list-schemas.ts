import { z } from 'zod';
import { PlanStatus } from '@/lib/approval/plan-status';
import { AuditEvent } from './gate-schemas';
import { ReviewQueueItem } from './operation-schemas';
import { PlanSummary, RevisionSummary } from './schemas';

// The query strings of the REST API's lists and the pages they answer. Every list is
// bounded (`limit`, at most LIST_LIMIT.max) and walked with an opaque `cursor` taken from
// the previous page's `next_cursor` (null on the last page). Unknown parameters are refused,
// so a misspelt filter is an error rather than a silently unfiltered list.

export const LIST_LIMIT = { default: 50, max: 200 } as const;
/** Search text longer than this is refused: it is matched with LIKE against every title. */
export const SEARCH_MAX_LENGTH = 100;
export const CURSOR_MAX_LENGTH = 512;

const Limit = z.coerce
  .number()
  .int()
  .min(1)
  .max(LIST_LIMIT.max)
  .default(LIST_LIMIT.default)
  .describe(`Items per page, 1 to ${LIST_LIMIT.max} (default ${LIST_LIMIT.default})`);
// Blank (`?cursor=`) is the first page, as a blank filter is no filter.
const Cursor = z.string().max(CURSOR_MAX_LENGTH).optional().describe("The previous page's next_cursor");

/** `limit` and `cursor`: the query of every paged list. */
export const PageQuery = z.strictObject({ limit: Limit, cursor: Cursor });
export type PageQuery = z.infer<typeof PageQuery>;

export const PLAN_SORTS = ['updated', 'created', 'title'] as const;
export const PlanSort = z.enum(PLAN_SORTS);
export type PlanSort = z.infer<typeof PlanSort>;
export const SortOrder = z.enum(['asc', 'desc']);
export type SortOrder = z.infer<typeof SortOrder>;

/** Newest first for the dates, A to Z for titles. */
export function defaultOrder(sort: PlanSort): SortOrder {
  return sort === 'title' ? 'asc' : 'desc';
}

const StatusList = z
  .string()
  .max(200)
  .transform((text, context) => {
    const statuses = [...new Set(text.split(',').map((part) => part.trim()).filter(Boolean))];
    for (const status of statuses) {
      if (!PlanStatus.safeParse(status).success) {
        context.addIssue({ code: 'custom', message: `Unknown status "${status.slice(0, 40)}"; one or more of ${PlanStatus.options.join(', ')}, comma-separated` });
        return z.NEVER;
      }
    }
    return statuses as PlanStatus[];
  })
  .optional()
  .describe(`One or more of ${PlanStatus.options.join(', ')}, comma-separated`);

export const PlanListQuery = z.strictObject({
  limit: Limit,
  cursor: Cursor,
  status: StatusList,
  author: z.string().trim().max(64).optional().describe("The plan's creator: who wrote revision 1 (exact username)"),
  q: z.string().trim().max(SEARCH_MAX_LENGTH).optional().describe('Text in the title or the plan id, case-insensitive'),
  sort: PlanSort.default('updated').describe('updated (default), created or title; ties are broken by plan id'),
  order: SortOrder.optional().describe('asc or desc; by default desc for dates and asc for titles'),
});
export type PlanListQuery = z.infer<typeof PlanListQuery>;
export type PlanListInput = z.input<typeof PlanListQuery>;

/**
 * A query string as the schemas above read it: one value per name (a repeated name is
 * refused by the caller) and empty values left out, so an HTML form's blank fields
 * (`?q=&status=`) mean "no filter".
 */
export function queryFields(params: URLSearchParams): { fields: Record<string, string>; repeated: string[] } {
  const fields: Record<string, string> = {};
  const repeated: string[] = [];
  for (const [name, value] of params) {
    if (name in fields) repeated.push(name);
    if (value !== '') fields[name] = value;
  }
  return { fields, repeated };
}

const NextCursor = z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page');

export const PlanListItem = PlanSummary.extend({
  task_count: z.number().int().describe("Tasks in the head revision"),
  author: z.string().describe('Who created the plan (the author of revision 1)'),
  created_at: z.string(),
});
export type PlanListItem = z.infer<typeof PlanListItem>;
export const PlanListPage = z.object({ plans: z.array(PlanListItem), next_cursor: NextCursor });
export type PlanListPage = z.infer<typeof PlanListPage>;

export const ReviewQueuePage = z.object({ plans: z.array(ReviewQueueItem), next_cursor: NextCursor });
export const RevisionPage = z.object({ revisions: z.array(RevisionSummary), next_cursor: NextCursor });
export const AuditPage = z.object({ events: z.array(AuditEvent), next_cursor: NextCursor });
