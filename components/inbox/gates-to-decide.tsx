import Link from '@/components/ui/link';
import { GateCard } from '@/components/runs/gate-card';
import { RelativeTime } from '@/components/plan/relative-time';
import type { GateToDecide } from '@/lib/api/run-schemas';
import { taskLabel } from '@/lib/flow/task-label';

/** The inbox's gates: each task waiting for the viewer's decision, decided right here. */
export function GatesToDecide({ gates, now }: { gates: GateToDecide[]; now: number }) {
  if (!gates.length) return null;
  return (
    <section aria-labelledby="gates-to-decide-heading" className="space-y-3">
      <h2 id="gates-to-decide-heading" className="text-lg font-semibold">
        Gates waiting for you ({gates.length})
      </h2>
      <p className="text-sm text-slate-600">Tasks of running plans that wait for your decision before they run: approve, edit the input then approve, or reject.</p>
      <ul className="space-y-3">
        {gates.map((gate) => (
          <li key={`${gate.run_id}:${gate.task_id}`}>
            <GateCard
              runId={gate.run_id}
              taskId={gate.task_id}
              label={taskLabel({ task_id: gate.task_id, description: gate.description })}
              input={gate.input}
              refusal={null}
              allowEdit={gate.allow_edit}
              refreshPage
              context={
                <p className="text-xs text-slate-700">
                  <span className="font-mono">{gate.task_id}</span> in{' '}
                  <Link href={`/runs/${gate.run_id}?task=${encodeURIComponent(gate.task_id)}`} className="text-brand-700 underline">
                    run {gate.run_id.slice(0, 8)}
                  </Link>{' '}
                  of “{gate.plan_title}” (revision {gate.revision}), started by {gate.started_by}, waiting since <RelativeTime iso={gate.since} now={now} />
                </p>
              }
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
