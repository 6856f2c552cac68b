import { expect, test } from './fixtures';

// The dry run on a demo plan, as an editor uses it before submitting: the timeline and the
// figures, then one task forced to fail and what that would skip.

test('a dry run of a demo plan shows its timeline and figures, and an injected failure skips what depends on it', async ({ page, api }) => {
  // A copy of its own: its dry runs are this test's alone, and the demo plan stays as other tests expect it.
  const { id } = await api.copyOfDemo('Berlin facilities, shipments, contaminants (seed 001)');
  await page.goto(`/plans/${id}`);
  await page.getByRole('link', { name: 'Dry run', exact: true }).click();
  await expect(page.getByText(/No dry run of revision \d+ yet/)).toBeVisible();

  const settings = page.getByRole('form', { name: 'Dry-run settings' });
  await settings.getByRole('spinbutton', { name: 'Workers' }).fill('2');
  await settings.getByRole('button', { name: 'Run dry run' }).click();
  await expect(page.getByRole('group', { name: /^Timeline: 3 tasks on 2 workers/ })).toBeVisible();
  await expect(page.getByLabel('Dry-run figures')).toContainText('Makespan3.5 s');
  await expect(page.getByLabel('Dry-run figures')).toContainText('Lower bound3.5 s');
  await expect(page.getByLabel('Dry-run figures')).toContainText('Failed / skipped0 / 0');

  await settings.getByRole('combobox', { name: 'Tasks that fail' }).fill('Get facilities');
  await page.getByRole('option', { name: /Get facilities in Berlin/ }).click();
  await settings.getByRole('button', { name: 'Run dry run' }).click();
  await expect(page.getByLabel('Dry-run figures')).toContainText('Failed / skipped1 / 2');
  const skipped = page.getByRole('region', { name: 'Skipped because an upstream task failed' });
  await expect(skipped.getByRole('button', { name: 'Get their shipments' })).toBeVisible();
  await expect(skipped.getByRole('button', { name: 'Check for contaminants' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Plan as the dry run sees it' }).getByText('skipped', { exact: true })).toHaveCount(2);
  await expect(page.getByLabel('Dry-run figures')).toContainText('No change shown: settings differ from the previous dry run (#1, revision 1).');
});
