import { expect, test } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../integration/helpers/fake-openai';
import { ADMIN, hydrated, signIn } from './helpers';
import { screenshots } from './screenshots';

/** Settings → Providers: an admin adds an endpoint with a key, tests it, and removes it. */
let fake: FakeOpenAi;
test.beforeAll(async () => {
  fake = await startFakeOpenAi();
});
test.afterAll(async () => {
  await fake?.close();
});

test('an admin adds a provider, tests it, edits its model keeping the key, and removes it', async ({
  page
}, testInfo) => {
  const key = 'sk-e2e-never-shown-7d1';
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/settings');
  await hydrated(page);
  const table = page.getByRole('table', { name: 'Providers' });
  await expect(table.locator('tr[data-provider="builtin"]')).toContainText('embedded');

  const form = page.locator('form', { has: page.getByRole('button', { name: 'Add provider' }) });
  await form.getByLabel('Name').fill('e2e-llm');
  await form.getByLabel('Base URL').fill(fake.url);
  await form.getByLabel('Model').fill('fake-large');
  await form.getByLabel('API key').fill(key);
  await form.getByRole('button', { name: 'Add provider' }).click();

  await expect(page.getByRole('status').getByText('Added provider e2e-llm.')).toBeVisible();
  await expect(form.getByLabel('API key')).toHaveValue('');
  const row = table.locator('tr[data-provider="e2e-llm"]');
  await expect(row).toContainText(fake.url);
  await expect(row).toContainText('key stored');

  await row.getByRole('button', { name: 'Test connection' }).click();
  await expect(row.getByRole('status')).toContainText('Models: fake-small, fake-large');
  expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);
  expect(await page.content()).not.toContain(key);

  // Editing changes the model and keeps the stored key (the key field stays empty).
  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = page.locator('form', { has: page.getByRole('button', { name: 'Save provider' }) });
  await expect(edit.getByLabel('Model')).toHaveValue('fake-large');
  await expect(edit.getByLabel('API key')).toHaveValue('');
  await edit.getByLabel('Model').fill('fake-small');
  await edit.getByRole('button', { name: 'Save provider' }).click();
  await expect(page.getByText('Saved provider e2e-llm.')).toBeVisible();
  await expect(row).toContainText('model fake-small');
  await row.getByRole('button', { name: 'Test connection' }).click();
  await expect(row.getByRole('status')).toContainText('Models: fake-small, fake-large');
  expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);

  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(row).toContainText('Remove provider e2e-llm?');
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('Removed provider e2e-llm.')).toBeVisible();
  await screenshots(page, testInfo, 'settings-providers');
});
