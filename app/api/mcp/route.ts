import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { serveMcp, withBearerChallenge } from '@/lib/server/mcp/mcp-server';

export const dynamic = 'force-dynamic';

// The endpoint checks the origin and the caller (at least a viewer; each tool checks its own
// role) and reads the body under the REST API's limits before MCP sees it.
const handler = endpoint(routes.callMcp, async ({ rawBody, principal, request }) => serveMcp(request, rawBody, { handle: await getDatabase(), principal }));

export async function POST(request: Request, context: { params: Promise<Record<string, string | string[]>> }): Promise<Response> {
  return withBearerChallenge(await handler(request, context), request);
}

// Stateless: no standalone event stream (GET) and no session to end (DELETE).
export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/mcp');
