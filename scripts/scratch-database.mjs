// Creates or drops a throw-away PostgreSQL database for the browser and API tests.
//   node scripts/scratch-database.mjs create ADMIN_URL   → prints the new database's URL
//   node scripts/scratch-database.mjs drop ADMIN_URL URL
import pg from 'pg';

const [command, adminUrl, scratchUrl] = process.argv.slice(2);
const client = new pg.Client({ connectionString: adminUrl });
await client.connect();
try {
  if (command === 'create') {
    const name = `plangate_e2e_${Date.now().toString(36)}_${process.pid}`;
    await client.query(`CREATE DATABASE "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    process.stdout.write(url.toString());
  } else if (command === 'drop') {
    const name = new URL(scratchUrl).pathname.slice(1);
    if (!name.startsWith('plangate_e2e_')) throw new Error(`refusing to drop "${name}": not a scratch database`);
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } else {
    throw new Error(`unknown command "${command}"; use create or drop`);
  }
} finally {
  await client.end();
}
