import { Client } from 'pg';

// One short-lived PostgreSQL connection for test set-up work (creating and dropping scratch
// and template databases), shared by the vitest global setup and the test databases.

export async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
