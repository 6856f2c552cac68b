import 'server-only';
import { pythonUtcIso, type PlanDocumentInput, type PlannerTaskInput } from '@/lib/plan';

// Demo plans for a fresh install, built from the seeds' own examples
// (the seeds of the domain's planners) so a newcomer opens real plans,
// not lorem ipsum. Everything is fixed (ids, timestamps) so each plan's content hash is stable:
// no field relies on a schema default that draws a UUID or the current time.

export type DemoPlan = { title: string; document: PlanDocumentInput };

/** Fills the fields every demo task shares; `task` wins over the defaults. */
function demoTask(mainTaskId: string, at: string, task: PlannerTaskInput & { task_id: string }): PlannerTaskInput {
  return {
    main_task_id: mainTaskId,
    status: 'pending',
    creation_time: at,
    last_update_time: at,
    ...task,
  };
}

// ---------------------------------------------------------------------------------------------
// 1. Seed 000, "End-to-End Usage Example": the research-paper summary job, as the Stage 1 plan
//    the Behavior Controller could return for it. Shape: fetch -> 3 parallel extractions
//    (fan-out) -> summarise (fan-in) -> formal-tone review -> assemble.
// ---------------------------------------------------------------------------------------------

const RESEARCH_ID = 'demo-research-summary';
// Timestamps in the form Python's datetime.isoformat() writes (naive UTC), like every one Plangate writes.
const RESEARCH_AT = pythonUtcIso(new Date('2026-01-15T09:00:00Z'));

// Seed 000 verbatim: Step 1 "Define your job inputs" and the planner's task_description.
const researchJob = {
  job_goal: { objective: 'Summarize research papers' },
  job_objectives: { accuracy: 'high', summary_length: 'short' },
  job_steerability_data: { tone: 'formal', max_tokens: 200 },
  task_description: 'Break this job into tasks for agents or tools',
};

const research = (task: PlannerTaskInput & { task_id: string }) => demoTask(RESEARCH_ID, RESEARCH_AT, task);

const extractFindings = (n: number) =>
  research({
    task_id: `extract-findings-${n}`,
    description: `Extract the key findings, method and evidence of paper ${n}.`,
    execution_type: 'agent',
    agent_id: 'agent-42',
    parameters: { sub_type: 'agent' },
    arguments: { paper_index: n - 1 },
    instructions: 'Quote numbers exactly as the paper states them; do not infer results it does not report.',
    estimate_data: { latency_ms: 9000, cost_usd: 0.012, tokens: 3200 },
    dependencies: ['fetch-papers'],
  });

const researchPlan: PlanDocumentInput = {
  plan: {
    task_id: RESEARCH_ID,
    // Seed 000 runs each task with execute_module(input_data={"text": "Paper text..."}).
    task_input_data: { text: 'Paper text...' },
    completed_tasks: [],
    output_data: {},
    creation_time: RESEARCH_AT,
    update_time: RESEARCH_AT,
    status: 'pending',
    original_job_data: researchJob,
    planned_tasks: [
      research({
        task_id: 'fetch-papers',
        description: 'Fetch the research papers to summarise, with title, authors and full text.',
        execution_type: 'tool',
        tool_id: 'papers_repository',
        function_id: 'fetch_papers',
        parameters: { sub_type: 'tools' },
        arguments: { limit: 3, include_full_text: true },
        estimate_data: { latency_ms: 1500, cost_usd: 0, tokens: 0 },
      }),
      extractFindings(1),
      extractFindings(2),
      extractFindings(3),
      research({
        task_id: 'summarise-findings',
        description: 'Write one short summary of the papers from their extracted findings.',
        // Seed 000's Stage 1 output form: an l2_task routed by parameters.sub_type.
        // Stored as written; Plangate treats it as an "llm" task (executionKind).
        execution_type: 'l2_task',
        function_id: 'gpt-4',
        parameters: { sub_type: 'llm', model: 'gpt-4', max_tokens: 200 },
        instructions: 'Formal tone, at most 200 tokens. Keep every claim traceable to one of the papers.',
        estimate_data: { latency_ms: 6000, cost_usd: 0.02, tokens: 1800 },
        dependencies: ['extract-findings-1', 'extract-findings-2', 'extract-findings-3'],
      }),
      research({
        task_id: 'review-tone',
        description: 'Review the summary for formal tone, accuracy against the findings and length.',
        execution_type: 'agent',
        agent_id: 'reviewer-agent',
        parameters: { sub_type: 'agent' },
        instructions: 'Reject informal wording and any claim not supported by an extracted finding.',
        estimate_data: { latency_ms: 4000, cost_usd: 0.006, tokens: 900 },
        dependencies: ['summarise-findings'],
      }),
      research({
        task_id: 'assemble-report',
        description: 'Assemble the reviewed summary and the paper references into the final report.',
        execution_type: 'dsl',
        function_id: 'report_assembly_workflow',
        parameters: { sub_type: 'dsl', format: 'markdown' },
        estimate_data: { latency_ms: 800 },
        dependencies: ['review-tone'],
      }),
    ],
  },
  job: researchJob,
  subgraphs: [],
  view: { positions: {}, collapsed: [] },
};

// ---------------------------------------------------------------------------------------------
// 2. Seed 001, "Example Queries -> Plans": Planner Agent plans, one PlannerTask per step.
//    tool_id = the step's tool, arguments = its params (templates kept verbatim),
//    dependencies = its depends_on indices as "step-<i>" ids, parameters = its parallel flag.
// ---------------------------------------------------------------------------------------------

// Seed 001's "today" (its plan metadata timestamp; "last week" resolves to 2025-10-05..12).
const PLANNER_AGENT_AT = pythonUtcIso(new Date('2025-10-12T06:00:00Z'));

type SeedStep = {
  description: string;
  tool: string;
  params: Record<string, unknown>;
  depends_on?: number[];
  parallel?: boolean;
};

function plannerAgentPlan(planId: string, query: string, steps: SeedStep[]): PlanDocumentInput {
  const job = {
    job_goal: { query },
    job_objectives: {},
    job_steerability_data: {},
    task_description: query,
  };
  return {
    plan: {
      task_id: planId,
      task_input_data: { query },
      completed_tasks: [],
      output_data: {},
      creation_time: PLANNER_AGENT_AT,
      update_time: PLANNER_AGENT_AT,
      status: 'pending',
      original_job_data: { query },
      planned_tasks: steps.map((step, i) =>
        demoTask(planId, PLANNER_AGENT_AT, {
          task_id: `step-${i}`,
          description: step.description,
          execution_type: 'tool',
          tool_id: step.tool,
          parameters: step.parallel === undefined ? {} : { parallel: step.parallel },
          arguments: step.params,
          dependencies: (step.depends_on ?? []).map((d) => `step-${d}`),
        }),
      ),
    },
    job,
    subgraphs: [],
    view: { positions: {}, collapsed: [] },
  };
}

// Example 4: Multi-Step with Dependencies.
const contaminatedShipmentsPlan = plannerAgentPlan(
  'demo-contaminated-shipments',
  'Get contaminated shipments and their contaminant details',
  [
    {
      description: 'Get contaminated shipments',
      tool: 'shipments_list',
      params: { has_contaminants: true, limit: 100 },
      depends_on: [],
      parallel: false,
    },
    {
      description: 'Get their contaminant details',
      tool: 'contaminants_list',
      params: { shipment_ids: '${step[0].data.*.id}' },
      depends_on: [0],
      parallel: false,
    },
  ],
);

// Example 7: Complex 3-Step Chain (the seed gives no parallel flags here).
const berlinChainPlan = plannerAgentPlan(
  'demo-berlin-chain',
  'Get facilities in Berlin, then their shipments, then check for contaminants',
  [
    {
      description: 'Get facilities in Berlin',
      tool: 'facilities_list',
      params: { location: 'Berlin' },
      depends_on: [],
    },
    {
      description: 'Get their shipments',
      tool: 'shipments_list',
      params: { facility_id: '${step[0].data.*.id}' },
      depends_on: [0],
    },
    {
      description: 'Check for contaminants',
      tool: 'contaminants_list',
      params: { shipment_ids: '${step[1].data.*.id}' },
      depends_on: [1],
    },
  ],
);

// Example 6: Parallel Execution (no depends_on in the seed: three independent steps).
const parallelPlan = plannerAgentPlan('demo-parallel-overview', 'Get shipments, facilities, and inspections', [
  { description: 'Get shipments', tool: 'shipments_list', params: { limit: 100 }, parallel: true },
  { description: 'Get facilities', tool: 'facilities_list', params: {}, parallel: true },
  { description: 'Get inspections', tool: 'inspections_list', params: { limit: 100 }, parallel: true },
]);

// ---------------------------------------------------------------------------------------------
// 3. Seed 004, "Customize Tasks": the two dependent AgentScope tasks seeded on agent "planner".
//    ids kept ("1", "2"); task 2 blocked_by ["1"] (and 1 blocks ["2"]) -> dependency on "1".
//    The seed sets no owner; the tasks belong to the agent that holds them, "planner".
// ---------------------------------------------------------------------------------------------

const AGENTSCOPE_ID = 'demo-agentscope-seeded-tasks';
const AGENTSCOPE_AT = pythonUtcIso(new Date('2026-01-15T09:00:00Z'));

const agentScopePlan: PlanDocumentInput = {
  plan: {
    task_id: AGENTSCOPE_ID,
    task_input_data: {},
    completed_tasks: [],
    output_data: {},
    creation_time: AGENTSCOPE_AT,
    update_time: AGENTSCOPE_AT,
    status: 'pending',
    original_job_data: null,
    planned_tasks: [
      demoTask(AGENTSCOPE_ID, AGENTSCOPE_AT, {
        task_id: '1',
        description: 'Fetch project requirements. Read README.md and CONTRIBUTING.md in the repo root.',
        execution_type: 'agent',
        agent_id: 'planner',
        parameters: { metadata: { source: 'seed' } },
      }),
      demoTask(AGENTSCOPE_ID, AGENTSCOPE_AT, {
        task_id: '2',
        description: 'Draft an implementation plan. Produce a step-by-step plan based on the requirements.',
        execution_type: 'agent',
        agent_id: 'planner',
        parameters: { metadata: { source: 'seed' } },
        dependencies: ['1'],
      }),
    ],
  },
  job: {
    job_goal: {},
    job_objectives: {},
    job_steerability_data: {},
    task_description: 'Tasks seeded on the AgentScope agent "planner" before its first reply.',
  },
  subgraphs: [],
  view: { positions: {}, collapsed: [] },
};

export const DEMO_PLANS: ReadonlyArray<DemoPlan> = [
  { title: 'Summarise research papers (seed 000)', document: researchPlan },
  { title: 'Contaminated shipments and their contaminants (seed 001)', document: contaminatedShipmentsPlan },
  { title: 'Berlin facilities, shipments, contaminants (seed 001)', document: berlinChainPlan },
  { title: 'Shipments, facilities and inspections in parallel (seed 001)', document: parallelPlan },
  { title: 'AgentScope seeded tasks (seed 004)', document: agentScopePlan },
];
