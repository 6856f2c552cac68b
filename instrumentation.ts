// Next.js calls register() once per server instance, before the first request: the place
// for start-up work (lib/server/bootstrap.ts). Only the Node.js runtime opens the database,
// and a production build does not (its workers must not take the data directory's lock).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { bootstrapServer } = await import('./lib/server/bootstrap');
  await bootstrapServer();
}
