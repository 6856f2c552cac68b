const STYLES: Record<string, { label: string; className: string; icon: string }> = {
  agent: { label: 'Agent', className: 'bg-violet-50 text-violet-800 ring-violet-200', icon: '◆' },
  tool: { label: 'Tool', className: 'bg-cyan-50 text-cyan-800 ring-cyan-200', icon: '⚙' },
  llm: { label: 'LLM', className: 'bg-pink-50 text-pink-800 ring-pink-200', icon: '✦' },
  dsl: { label: 'DSL', className: 'bg-yellow-50 text-yellow-800 ring-yellow-200', icon: '▤' },
};

export function ExecutionTypeBadge({ type }: { type: string }) {
  const style = STYLES[type];
  if (!style) {
    return (
      <span className="inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium text-rose-700 ring-1 ring-inset ring-rose-300">
        {type || 'missing'}
      </span>
    );
  }
  return (
    <span className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${style.className}`}>
      <span aria-hidden>{style.icon}</span>
      {style.label}
    </span>
  );
}
