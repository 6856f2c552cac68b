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

/** A Job kept in original_job_data by `serialize` comes back as the job. */
function jobFrom(original: Record<string, unknown> | null) {
  if (!original || !('job_goal' in original)) return undefined;
  const job = Job.safeParse(original);
  return job.success ? job.data : undefined;
}

const JOB_FIELDS: readonly JobField[] = ['job_goal', 'job_objectives', 'job_steerability_data', 'task_description'];
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
      return { plan, job: job?.data ?? jobFrom(plan.original_job_data) };
    }
    const plan = parseTaskData(value);
    return { plan, job: jobFrom(plan.original_job_data) };
  },

  carries: CARRIES,

  serialize(doc) {
    const { plan, job } = doc;
    const report = new ExportReport();
    report.uncarried(doc, CARRIES);
    const jobFields = JOB_FIELDS.filter((f) => !sameJson(job[f], EMPTY_JOB[f]));
    // TaskData has one place for the job, original_job_data ("the job description before
    // planning began"); it carries the job when it is free, otherwise the job is reported.
    const out = jobFields.length > 0 && plan.original_job_data === null ? { ...plan, original_job_data: job } : plan;
    if (plan.original_job_data !== null) for (const f of jobFields) report.job(f, `${f} (original_job_data is already set)`);
    return report.result(`${JSON.stringify(out, null, 2)}\n`);
  },
};
