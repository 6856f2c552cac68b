import { expect, test } from './fixtures';
import { copyOfSeed000 } from './seed000-copy';

// The dry run's "Tasks that fail" picker finds a task by the words of its description, not
// only by its shortened name or its id; and text typed but never picked stops the run with a
// clear message rather than running it without the failure the operator meant.

test('the failure picker finds "paper 2" by its description, and refuses to run while nothing is picked', async ({ page, api }) => {
  const { id } = await copyOfSeed000(api, 'Failure picker');
  await page.goto(`/plans/${id}/dry-run`);
  await expect(page.getByText(/No dry run of revision \d+ yet/)).toBeVisible();
  const settings = page.getByRole('form', { name: 'Dry-run settings' });
  const picker = settings.getByRole('combobox', { name: 'Tasks that fail' });

  await picker.fill('paper 2');
  const options = page.getByRole('listbox', { name: 'Tasks that fail' }).getByRole('option');
  await expect(options.first()).toContainText('extract-findings-2');
  await expect(options.filter({ hasText: 'extract-findings-1' })).toHaveCount(0);

  // Run without picking: refused, said, and nothing ran.
  await settings.getByRole('button', { name: 'Run dry run' }).click();
  await expect(settings.getByRole('alert')).toContainText('No task picked: “paper 2” is typed here but no task was picked for it, so the dry run was not started.');
  await expect(picker).toBeFocused();
  await expect(picker).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/No dry run of revision \d+ yet/)).toBeVisible();

  // Picked from the keyboard, it runs with the failure: the three tasks after it are skipped.
  await picker.press('Enter');
  await expect(settings.getByRole('list', { name: 'Tasks that fail: picked' })).toContainText('(extract-findings-2)');
  await expect(settings.getByRole('alert')).toHaveCount(0);
  await settings.getByRole('button', { name: 'Run dry run' }).click();
  await expect(page.getByLabel('Dry-run figures')).toContainText('Failed / skipped1 / 3');
});
