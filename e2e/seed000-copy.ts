import { expect, type CreatedPlan, type PlansApi } from './fixtures';

const SEED_000 = 'Summarise research papers (seed 000)';

/**
 * A copy of the seed 000 demo plan under a title of the test's own: a copy titled like the demo
 * would also answer the plan list's "Summarise research papers (seed 000)" link.
 */
export async function copyOfSeed000(api: PlansApi, title: string): Promise<CreatedPlan> {
  const list = await (await api.request.get(`/api/plans?q=${encodeURIComponent(SEED_000)}`)).json();
  const demo = (list.plans as Array<{ id: string; title: string }>).find((p) => p.title === SEED_000);
  expect(demo, `the demo plan "${SEED_000}"`).toBeDefined();
  const { plan, job, subgraphs, view } = await api.head(demo!.id);
  return api.create(title, plan, { job, subgraphs, view });
}
