import { resourceKey, type Registry, type ResourceKind } from '@/lib/registry/schema';
import { AddResourceForm } from './add-resource-form';
import { KIND_LABELS, KIND_TEMPLATES, kindCells, kindColumns } from './kind-config';
import { ResourceTable } from './resource-table';
import type { RowData } from './resource-row';

/** One kind of resource: its table and, for editors, the form that adds one. */
export function RegistrySection<K extends ResourceKind>({
  kind,
  resources,
  canEdit,
}: {
  kind: K;
  resources: Registry[K];
  canEdit: boolean;
}) {
  const { heading, singular } = KIND_LABELS[kind];
  const headingId = `registry-${kind}-heading`;
  const rows: RowData[] = resources.map((resource) => ({
    key: resourceKey(resource),
    description: resource.description,
    cells: kindCells(kind, resource),
    json: JSON.stringify(resource, null, 2),
  }));
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="flex items-baseline gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {heading}
        </h2>
        <span className="text-sm text-slate-500">
          {resources.length} {resources.length === 1 ? singular : `${singular}s`}
        </span>
      </div>
      <ResourceTable kind={kind} heading={heading} singular={singular} columns={kindColumns(kind)} rows={rows} canEdit={canEdit} />
      {canEdit && (
        <AddResourceForm
          kind={kind}
          heading={heading}
          singular={singular}
          template={JSON.stringify(KIND_TEMPLATES[kind], null, 2)}
          existingKeys={rows.map((row) => row.key)}
        />
      )}
    </section>
  );
}
