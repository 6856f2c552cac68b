import { z } from 'zod';

// Deterministic plan-shaped DAGs for the benchmarks.

export const BenchTasks = z.array(
  z.object({ task_id: z.string(), dependencies: z.array(z.string()), runtime_ms: z.number().nullable() }),
);
export type BenchTask = z.infer<typeof BenchTasks>[number];

/** mulberry32: tiny, fast and seedable, so every machine benchmarks the same graphs. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A plan-like DAG: each task depends on 0–6 earlier tasks (3 on average), mostly
 * within the previous 64 tasks (pipelines and fan-ins are local), with 5% of the
 * dependencies reaching anywhere back (shared set-up steps, final reports).
 * Tasks are listed in creation order, as planners emit them.
 */
export function syntheticPlan(n: number, seed: number): BenchTask[] {
  const random = rng(seed);
  const WINDOW = 64;
  const tasks: BenchTask[] = [];
  for (let i = 0; i < n; i++) {
    const want = Math.min(i, Math.floor(random() * 7));
    const deps = new Set<number>();
    while (deps.size < want) {
      const far = random() < 0.05;
      const span = far ? i : Math.min(i, WINDOW);
      deps.add(i - 1 - Math.floor(random() * span));
    }
    tasks.push({
      task_id: `task-${i}`,
      dependencies: Array.from(deps, (d) => `task-${d}`),
      runtime_ms: 100 + Math.floor(random() * 10_000),
    });
  }
  // Round-trip through JSON so ids are fresh strings, as they are after parsing a request body.
  return BenchTasks.parse(JSON.parse(JSON.stringify(tasks)));
}

