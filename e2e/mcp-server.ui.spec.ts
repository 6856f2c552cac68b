import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test, uniqueTitle } from './fixtures';

// Plangate as an agent's MCP server, end to end: an agent built with the SDK's own client,
// holding the editor's API token, submits a plan and waits; the approver, signed in through
// the real sign-in form, approves it in the browser at the link the agent was given; the
// agent hears "approved" and takes the hand-off with the hash that was approved.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } } };

function mcpTransport(baseURL: string | undefined, token?: string) {
  return new StreamableHTTPClientTransport(new URL('/api/mcp', baseURL), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : undefined);
}

test('an agent submits over MCP and waits while a person approves in the browser, then takes the approved hand-off', async ({ page, baseURL, reviewAs }) => {
  // A token acts in its owner's name: the editor, signed in, mints one for their agent.
  const minted = await page.request.post('/api/tokens', { data: { label: 'MCP agent', expires_in_days: 1 } });
  expect(minted.status()).toBe(201);
  const { token } = await minted.json();
  const agent = new Client({ name: 'e2e-agent', version: '1.0.0' });
  await agent.connect(mcpTransport(baseURL, token));
  try {
    const title = uniqueTitle('Shipments planned by an agent');
    const submitted = await agent.callTool({ name: 'submit_plan', arguments: { title, plan, reviewers: ['approver'] } });
    expect(submitted.isError).toBeFalsy();
    const { id, content_hash, status, review_url } = submitted.structuredContent as { id: string; content_hash: string; status: string; review_url: string };
    expect([status, review_url]).toEqual(['in_review', `${baseURL}/plans/${id}/review`]);

    const progress: string[] = [];
    const decision = agent.callTool({ name: 'wait_for_decision', arguments: { plan_id: id, timeout_seconds: 120 } }, undefined, {
      onprogress: (note) => void progress.push(note.message ?? ''),
      resetTimeoutOnProgress: true,
    });

    const review = await reviewAs('approver');
    await review.page.goto(review_url);
    await expect(review.page.getByRole('region', { name: 'Validation' })).toContainText('No errors');
    await review.decide('Approve', 'Fine for the agent to run.');

    const outcome = await decision;
    expect(outcome.isError).toBeFalsy();
    expect(outcome.structuredContent).toMatchObject({ status: 'approved', decided: true, timed_out: false, revision: 1, content_hash });
    expect(progress[0]).toBe('Revision 1 is in review: 0 of 1 approvals');

    const handOff = await agent.callTool({ name: 'get_approved_plan', arguments: { plan_id: id } });
    expect(handOff.structuredContent).toMatchObject({ revision: 1, content_hash, approvals: [{ reviewer: 'approver', comment: 'Fine for the agent to run.' }] });
  } finally {
    await agent.close();
  }
});

test('without a token the MCP endpoint answers 401 with a Bearer challenge, and the SDK client hears it', async ({ playwright, baseURL }) => {
  const anonymous = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const response = await anonymous.post('/api/mcp', { headers: { Accept: 'application/json, text/event-stream' }, data: initialize });
  expect(response.status()).toBe(401);
  expect(response.headers()['www-authenticate']).toBe('Bearer realm="Plangate"');
  expect((await response.json()).error.code).toBe('unauthenticated');
  // The headers every API answer carries.
  expect(response.headers()).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
  await anonymous.dispose();

  const agent = new Client({ name: 'e2e-agent-without-token', version: '1.0.0' });
  await expect(agent.connect(mcpTransport(baseURL))).rejects.toMatchObject({ code: 401 });
});
