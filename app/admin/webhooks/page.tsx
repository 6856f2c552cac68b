import type { Metadata } from 'next';
import { WebhookDeleteButton } from '@/components/admin/webhook-delete-button';
import { WebhookForm } from '@/components/admin/webhook-form';
import { RoleRequired } from '@/components/auth/role-required';
import { RelativeTime } from '@/components/plan/relative-time';
import { DataTable, type DataColumn } from '@/components/ui/data-table';
import type { WebhookDelivery } from '@/lib/api/webhook-schemas';
import { hasRole } from '@/lib/auth/roles';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { retrySummary } from '@/lib/server/webhooks/webhook-queue';
import { listDeliveries, listWebhooks } from '@/lib/server/webhooks/webhook-service';

export const metadata: Metadata = { title: 'Webhooks' };

const STATUS_STYLE: Record<WebhookDelivery['status'], string> = {
  delivered: 'bg-emerald-100 text-emerald-900',
  pending: 'bg-amber-100 text-amber-900',
  failed: 'bg-rose-100 text-rose-900',
};

const DELIVERY_COLUMNS: DataColumn[] = [
  { id: 'event', header: 'Event', sortable: true, className: 'font-mono' },
  { id: 'plan', header: 'Plan', sortable: true, className: 'font-mono' },
  { id: 'status', header: 'Status', sortable: true },
  { id: 'attempts', header: 'Attempts', className: 'text-slate-700' },
  { id: 'queued', header: 'Queued', sortable: true, className: 'text-slate-700' },
];

function attemptText(attempt: WebhookDelivery['attempt_log'][number]): string {
  return `#${attempt.attempt}: ${attempt.error ?? `HTTP ${attempt.status_code}`} (${attempt.duration_ms} ms)`;
}

export default async function WebhooksPage({ searchParams }: PageProps<'/admin/webhooks'>) {
  const user = await requirePageUser('/admin/webhooks', searchParams);
  if (!hasRole(user.role, 'admin')) return <RoleRequired role="admin" username={user.username} current={user.role} />;
  const { db } = await getDatabase();
  const hooks = await listWebhooks(db);
  const logs = await Promise.all(hooks.map((hook) => listDeliveries(db, hook.id, 20)));
  // eslint-disable-next-line react-hooks/purity -- rendered once per request; "now" is the request time
  const now = Date.now();
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-6 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>
        <p className="mt-1 text-sm text-slate-600">
          Plangate POSTs a signed JSON event to each URL when a plan is submitted, approved, sent back or rejected, or an
          approval is voided. Delivery happens after the action and never holds it up; a failed delivery is {retrySummary()}.
        </p>
      </div>
      {hooks.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600">No webhooks yet.</p>
      ) : (
        <ul className="space-y-4" aria-label="Webhooks">
          {hooks.map((hook, index) => (
            <li key={hook.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <h2 className="break-all font-mono text-sm font-semibold text-slate-900">{hook.url}</h2>
                  <p className="mt-1 text-xs text-slate-600">
                    {hook.events.join(', ')} · added by {hook.created_by} <RelativeTime iso={hook.created_at} now={now} />
                  </p>
                </div>
                <WebhookDeleteButton id={hook.id} url={hook.url} />
              </div>
              <details className="mt-3" open={logs[index].length > 0 && index === 0}>
                <summary className="cursor-pointer text-sm font-medium text-slate-700">
                  Delivery log ({logs[index].length === 20 ? 'newest 20' : logs[index].length})
                </summary>
                <DataTable
                  variant="plain"
                  className="mt-2"
                  caption={`Deliveries to ${hook.url}, newest first`}
                  columns={DELIVERY_COLUMNS}
                  empty="Nothing sent yet."
                  rows={logs[index].map((delivery) => ({
                    key: delivery.id,
                    sortValues: { event: delivery.event, plan: delivery.plan_id, status: delivery.status, queued: Date.parse(delivery.created_at) },
                    cells: [
                      delivery.event,
                      delivery.plan_id ?? '—',
                      <span key="status" className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLE[delivery.status]}`}>
                        {delivery.status}
                      </span>,
                      delivery.attempt_log.length ? delivery.attempt_log.map(attemptText).join('; ') : 'none yet',
                      <RelativeTime key="queued" iso={delivery.created_at} now={now} />,
                    ],
                  }))}
                />
              </details>
            </li>
          ))}
        </ul>
      )}
      <WebhookForm />
    </div>
  );
}
