import { expect, test } from './fixtures';
import { copyOfSeed000 } from './seed000-copy';

// Seed 000 has three tasks whose descriptions read alike ("Extract the key findings, method
// and evidence of paper 1/2/3", cut to the same 48 characters). Where labels collide, each
// shows its task id beside it, on the canvas, in the outline, in the inspector and in the
// names a screen reader reads; a label no other task shares is left alone.

const CUT = 'Extract the key findings, method and evidence o…';

test('tasks whose labels collide are told apart by their ids on nodes, outline, inspector and accessible names', async ({ page, api, editor }) => {
  const { id } = await copyOfSeed000(api, 'Colliding labels');
  await editor.open(id, { showing: `${CUT} (extract-findings-2)` });

  for (const n of [1, 2, 3]) {
    const node = editor.node(`${CUT} (extract-findings-${n})`);
    await expect(node).toBeVisible();
    await expect(node).toContainText(`(extract-findings-${n})`);
  }
  await expect(editor.node('Fetch the research papers to summarise, with ti…')).toBeVisible();

  const outline = page.getByRole('navigation', { name: 'Outline' }).getByRole('list', { name: 'Tasks' });
  for (const n of [1, 2, 3]) await expect(outline.getByRole('button', { name: new RegExp(`^${CUT} \\(extract-findings-${n}\\)`) })).toHaveCount(1);

  await expect(page.getByRole('group', { name: `Dependency Fetch the research papers to summarise, with ti… → ${CUT} (extract-findings-3)` })).toHaveCount(1);

  await editor.select('Write one short summary of the papers from thei…');
  const dependsOn = editor.inspector.getByRole('group', { name: 'Depends on' });
  for (const n of [1, 2, 3]) await expect(dependsOn.getByRole('button', { name: `Remove dependency on ${CUT} (extract-findings-${n})` })).toBeVisible();
});

test('the remove button of a dependency with a long name stays inside the inspector at 1440 px', async ({ page, api, editor }) => {
  const { id } = await copyOfSeed000(api, 'Colliding labels');
  await page.setViewportSize({ width: 1440, height: 900 });
  await editor.open(id, { showing: 'Write one short summary of the papers from thei…' });
  await editor.select('Write one short summary of the papers from thei…');
  const remove = editor.inspector.getByRole('button', { name: `Remove dependency on ${CUT} (extract-findings-1)` });
  // Measured where it is, unscrolled: the inspector's pane must not need a sideways scroll to show it.
  const fit = await remove.evaluate((button) => {
    const pane = button.closest('aside')!.parentElement!;
    return { right: button.getBoundingClientRect().right, paneRight: pane.getBoundingClientRect().right, sideways: pane.scrollWidth > pane.clientWidth };
  });
  expect(fit.sideways).toBe(false);
  expect(fit.right).toBeLessThanOrEqual(fit.paneRight);
  await remove.click();
  await expect(editor.inspector.getByRole('group', { name: 'Depends on' }).getByRole('button', { name: /^Remove dependency/ })).toHaveCount(2);
});
