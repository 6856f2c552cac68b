import { describe, expect, it } from 'vitest';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { accountTies } from './account-ties';
import { createUser } from './users';

// Who counts as one person by who made whose account: an admin's accounts do, the system
// actors that seed users and plans (the demo, the command line) do not.

describe.each(testDatabases())('account ties on $name', (database) => {
  const db = useTestDatabase(database);

  it('ties an admin to the accounts they made, down the chain, but not users a system actor seeded', async () => {
    await createUser(db(), { username: 'ada', role: 'admin', password: 'a-long-password-1' }, 'cli');
    await createUser(db(), { username: 'puppet', role: 'approver', password: 'a-long-password-1' }, 'ada');
    await createUser(db(), { username: 'puppet2', role: 'approver', password: 'a-long-password-1' }, 'puppet');
    await createUser(db(), { username: 'demo-approver', role: 'approver', password: 'a-long-password-1' }, 'plangate-demo');
    await createUser(db(), { username: 'cli-approver', role: 'approver', password: 'a-long-password-1' }, 'cli');

    const fromAda = await accountTies(db(), ['ada']);
    expect([...fromAda.keys()].sort()).toEqual(['puppet', 'puppet2']);
    expect(fromAda.get('puppet')).toMatchObject({ person: 'ada', relation: 'created_by', direct: true });
    // A plan the demo seeded can be approved by the demo's approvers: plangate-demo is no account.
    expect([...(await accountTies(db(), ['plangate-demo', 'cli'])).keys()]).toEqual([]);
    // Up the chain: the puppet's work is the admin's too.
    expect((await accountTies(db(), ['puppet2'])).get('ada')).toMatchObject({ person: 'puppet2', relation: 'creator_of', direct: false });
  });
});
