import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { copyOfSeed000 } from './seed000-copy';

// "Add task" puts the new task where the operator is looking, in free space beside the tasks
// in view (never on top of one), and opens its fields at the top with the description ready
// to type into, whatever the inspector was scrolled to before.

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxes(nodes: Locator): Promise<Box[]> {
  return Promise.all((await nodes.all()).map(async (node) => (await node.boundingBox())!));
}

test('a task added lands in free space in view, with its inspector at the top and the description focused', async ({ page, api, editor }) => {
  const { id } = await copyOfSeed000(api, 'Add task in free space');
  await page.setViewportSize({ width: 1440, height: 900 });
  await editor.open(id, { showing: 'Assemble the reviewed summary and the paper ref…' });
  const canvas = page.getByLabel('Plan graph');
  const tasks = page.getByRole('group', { name: /^Task / });

  // Scrolled down the last task's fields first, as an operator working on its Stage 2 would be.
  await editor.select('Assemble the reviewed summary and the paper ref…');
  await editor.inspector.getByRole('button', { name: 'Run Stage 2' }).scrollIntoViewIfNeeded();
  await expect(editor.inspector.getByRole('heading', { name: 'Task', exact: true })).not.toBeInViewport();

  for (const round of [1, 2]) {
    const before = await boxes(tasks);
    await page.getByRole('button', { name: 'Add task' }).click();
    await expect(tasks).toHaveCount(before.length + 1);
    await expect(editor.description).toBeFocused();
    await expect(editor.description).toHaveValue('New task');
    await expect(editor.inspector.getByRole('heading', { name: 'Task', exact: true })).toBeInViewport();

    // The one added before was renamed, so this name is its own.
    const added = page.getByRole('group', { name: 'Task New task' });
    await expect(added).toBeInViewport();
    const view = (await canvas.boundingBox())!;
    const box = (await added.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(view.x);
    expect(box.y).toBeGreaterThanOrEqual(view.y);
    expect(box.x + box.width).toBeLessThanOrEqual(view.x + view.width);
    expect(box.y + box.height).toBeLessThanOrEqual(view.y + view.height);
    // After any pan to it, every other task is measured again.
    const others = (await boxes(tasks)).filter((other) => other.x !== box.x || other.y !== box.y);
    expect(others.filter((other) => overlap(other, box))).toEqual([]);
    await editor.description.fill(`Added ${round}`);
    await editor.description.blur();
  }
});
