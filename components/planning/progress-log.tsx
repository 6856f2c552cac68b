/** The planner's progress messages, announced politely as each one is appended. */
export function ProgressLog({ messages }: { messages: string[] }) {
  return (
    <ol role="log" aria-label="Planning progress" className="space-y-1 rounded border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
      {messages.length === 0 ? <li className="text-slate-500">Waiting for the planner…</li> : messages.map((message, index) => <li key={index}>{message}</li>)}
    </ol>
  );
}
