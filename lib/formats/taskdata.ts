import { z } from 'zod';
import { formatPath, Job, PlannerTask, TaskData } from '@/lib/plan';
import { FORMAT_LABELS, FormatError, type ParsedPlan, type PlanFormat } from './format';
import { ExportReport, sameJson, type CarriedFields, type JobField } from './export-drops';
import { looksLikeJson, parseJsonText } from './json-text';

// Seed 000's own shape, the native format. Also accepted, because planners hand it over
// in these wrappers: a Behavior Controller reply `{ success, data: [PlannerTask] }`, the
// Stage 1 answer `{ tasks: [PlannerTask] }`, and a Plangate document `{ plan, job }`.

const BehaviorControllerReply = z.object({ success: z.boolean(), data: z.array(z.unknown()) });
const TasksAnswer = z.object({ tasks: z.array(z.unknown()) }).strict();
const PlangateDocument = z.object({ plan: z.unknown(), job: z.unknown().optional() });

function fail(error: z.ZodError, prefix: string): never {
  const issue = error.issues[0];
  throw new FormatError('taskdata', formatPath([...(prefix ? [prefix] : []), ...issue.path]), issue.message);
}

function parseTaskData(value: unknown, prefix = ''): ReturnType<typeof TaskData.parse> {
  const parsed = TaskData.safeParse(value);
  if (!parsed.success) fail(parsed.error, prefix);
  return parsed.data;
}

const JOB_FIELDS: readonly JobField[] = ['job_goal', 'job_objectives', 'job_steerability_data', 'task_description'];
/** Where the job rides inside original_job_data when that holds something else already. */
const JOB_KEY = 'plangate_job';

/**
 * The job `serialize` carried in original_job_data, and what original_job_data was before:
 * all of it when it is exactly a job, or the `plangate_job` inside it. A seed 000 file whose
 * original_job_data merely mentions a job_goal keeps it, and the job is read from it too.
 */
function splitJob(original: Record<string, unknown> | null): { original: Record<string, unknown> | null; job: Job | undefined } {
  if (!original) return { original, job: undefined };
  if (JOB_KEY in original) {
    const { [JOB_KEY]: carried, ...rest } = original;
    // null: serialize's note that original_job_data is not a job, though it looks like one.
    if (carried === null) return { original: rest, job: undefined };
    const job = Job.safeParse(carried);
    if (job.success) return { original: rest, job: job.data };
  }
  if (!('job_goal' in original)) return { original, job: undefined };
  const job = Job.safeParse(original);
  if (!job.success) return { original, job: undefined };
  const onlyJob = Object.keys(original).every((key) => (JOB_FIELDS as readonly string[]).includes(key));
  return { original: onlyJob ? null : original, job: job.data };
}

/** The plan with the job `serialize` carried taken back out of original_job_data. */
function withJob(plan: TaskData): ParsedPlan {
  const { original, job } = splitJob(plan.original_job_data);
  return { plan: { ...plan, original_job_data: original }, job };
}
const EMPTY_JOB = Job.parse({});

// Seed 000's own shape holds every task and plan field; the job rides in original_job_data
// when that is free (see serialize).
const CARRIES: CarriedFields = {
  task: {
    task_id: true, main_task_id: true, description: true, execution_type: true, dependencies: true, tool_id: true, function_id: true,
    agent_id: true, parameters: true, arguments: true, instructions: true, convertor_code: true, estimate_data: true,
    mark_replan: true, status: true, output: true,
  },
  plan: { task_input_data: true, completed_tasks: true, output_data: true, status: true, original_job_data: true },
  job: Object.fromEntries(JOB_FIELDS.map((f) => [f, true])),
};

export const taskDataFormat: PlanFormat = {
  id: 'taskdata',
  label: FORMAT_LABELS.taskdata,
  mediaType: 'application/json',
  extension: 'json',

  detect(text) {
    return looksLikeJson(text) && /"(planned_tasks|tasks|data|plan)"\s*:/.test(text) && !/"steps"\s*:|"_tool"\s*:|"workflow"\s*:/.test(text);
  },

  parse(text): ParsedPlan {
    const value = parseJsonText('taskdata', text);
    const reply = BehaviorControllerReply.safeParse(value);
    if (reply.success) {
      const tasks = z.array(PlannerTask).safeParse(reply.data.data);
      if (!tasks.success) fail(tasks.error, 'data');
      return { plan: { planned_tasks: tasks.data } };
    }
    const answer = TasksAnswer.safeParse(value);
    if (answer.success) {
      const tasks = z.array(PlannerTask).safeParse(answer.data.tasks);
      if (!tasks.success) fail(tasks.error, 'tasks');
      return { plan: { planned_tasks: tasks.data } };
    }
    const document = PlangateDocument.safeParse(value);
    if (document.success && value && typeof value === 'object' && !('planned_tasks' in value)) {
      const plan = parseTaskData(document.data.plan, 'plan');
      const job = document.data.job === undefined ? undefined : Job.safeParse(document.data.job);
      if (job && !job.success) fail(job.error, 'job');
      return job ? { plan, job: job.data } : withJob(plan);
    }
    return withJob(parseTaskData(value));
  },

  carries: CARRIES,

  serialize(doc) {
    const { plan, job } = doc;
    const report = new ExportReport();
    report.uncarried(doc, CARRIES);
    const hasJob = JOB_FIELDS.some((f) => !sameJson(job[f], EMPTY_JOB[f]));
    // TaskData has one place for the job, original_job_data ("the job description before
    // planning began", a free-form dict in seed 000): the job is all of it when it is free,
    // else it rides inside it under plangate_job. Either way importing the file gives back
    // the same original_job_data and job, so the content hash survives the round trip.
    const stored = plan.original_job_data;
    const original = hasJob
      ? stored === null
        ? job
        : { ...stored, [JOB_KEY]: job }
      : stored !== null && splitJob(stored).original !== stored
        ? { ...stored, [JOB_KEY]: null }
        : stored;
    return report.result(`${JSON.stringify({ ...plan, original_job_data: original }, null, 2)}\n`);
  },
};
