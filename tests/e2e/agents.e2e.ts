import { expect, test } from '@playwright/test';
import { ADMIN, adminAddsAndSignsIn, hydrated, signIn } from './helpers';
import { screenshots } from './screenshots';

test('an admin creates, edits, disables and deletes an agent', async ({ page }, testInfo) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/agents');
  await hydrated(page);
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const table = page.getByRole('table', { name: 'Agents' });
  const main = table.locator('tr[data-name="main"]');
  await expect(main).toContainText('from config');
  await expect(main).toContainText('Change it in the config file');
  // The heartbeat's last and next beat, as times of day to the second.
  await expect(main.locator('[data-heartbeat-times]')).toHaveText(
    /last \d{1,2}:\d{2}:\d{2}\D*·\s*next \d{1,2}:\d{2}:\d{2}/
  );

  const form = page.locator('form', { has: page.getByRole('button', { name: 'Create agent' }) });
  await form.getByLabel('Name').fill('e2e-agent');
  await form.getByLabel('Description').fill('Made by the e2e flow');
  await form.getByLabel('Heartbeat (seconds)').fill('45');
  await form.getByLabel('System prompt').fill('Be brief.');
  await form.getByRole('checkbox', { name: 'echo', exact: true }).check();
  await form.getByRole('button', { name: 'Create agent' }).click();

  const row = table.locator('tr[data-name="e2e-agent"]');
  await expect(row).toContainText('Made by the e2e flow');
  await expect(row).toContainText('console');
  await expect(row).toContainText('idle');
  await expect(row).toContainText('45 s');
  await expect(row.getByRole('list', { name: 'Skills of e2e-agent' })).toHaveText('echo');
  await expect(form.getByLabel('Name')).toHaveValue('');

  // Editing opens a form with the agent's settings and the focus in it; saving returns focus.
  await row.getByRole('button', { name: 'Edit e2e-agent' }).click();
  const editor = page.getByRole('region', { name: 'Edit agent e2e-agent' });
  await expect(editor.getByLabel('Description')).toBeFocused();
  await expect(editor.getByLabel('System prompt')).toHaveValue('Be brief.');
  await expect(editor.getByRole('checkbox', { name: 'echo', exact: true })).toBeChecked();
  await editor.getByLabel('Description').fill('Edited in the console');
  await editor.getByLabel('Heartbeat (seconds)').fill('120');
  await editor.getByRole('checkbox', { name: 'echo', exact: true }).uncheck();
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await expect(editor).toHaveCount(0);
  await expect(page.getByRole('status').getByText('Saved e2e-agent.')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Edit e2e-agent' })).toBeFocused();
  await expect(row).toContainText('Edited in the console');
  await expect(row).toContainText('2 min');
  await expect(row).toContainText('all skills');

  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row).toContainText('disabled');
  await expect(row.locator('[data-heartbeat-times]')).toHaveText('not beating');
  await expect(row.getByRole('button', { name: 'Enable' })).toBeVisible();

  // The dialog names the agent, starts on Cancel, and Escape backs out.
  await row.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete agent e2e-agent?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Delete e2e-agent' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByRole('status').getByText('Deleted e2e-agent.')).toBeVisible();

  // Still gone after a reload: the page shows what the server holds.
  await page.reload();
  await hydrated(page);
  await expect(main).toBeVisible();
  await expect(table.locator('tr[data-name="e2e-agent"]')).toHaveCount(0);
  await screenshots(page, testInfo, 'agents');
});

test('a viewer sees the agents without the controls that change them', async ({
  page,
  browser
}) => {
  const viewer = await adminAddsAndSignsIn(page, browser, {
    email: 'agent-viewer@example.com',
    name: 'Agent Viewer',
    role: 'viewer',
    password: 'viewer-password-1'
  });
  await viewer.goto('/agents');
  await hydrated(viewer);
  await expect(
    viewer.getByRole('table', { name: 'Agents' }).locator('tr[data-name="main"]')
  ).toContainText('from config');
  await expect(viewer.getByRole('button', { name: 'Create agent' })).toHaveCount(0);
  await expect(viewer.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
  await expect(viewer.getByText('operators and admins create and change them')).toBeVisible();
  await viewer.context().close();
});
