import { expect, type Browser, type Page } from '@playwright/test';

export const ADMIN = {
  email: 'admin@example.com',
  name: 'Ada Admin',
  password: 'correct-horse-battery'
};

/** The root layout marks the page once Svelte has hydrated; clicks before that are lost. */
export async function hydrated(page: Page): Promise<void> {
  await page.locator('[data-hydrated]').first().waitFor({ state: 'attached' });
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await hydrated(page);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A new browser context (its own cookies) signed in as this user. */
export async function signedInPage(
  browser: Browser,
  email: string,
  password: string
): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/$/);
  return page;
}

/** Creates a user through the Users page, as an admin would. */
export async function addUser(
  page: Page,
  user: { email: string; name: string; role: string; password: string }
) {
  await page.goto('/users');
  await hydrated(page);
  const form = page.locator('form', { has: page.getByRole('button', { name: 'Create user' }) });
  await form.getByLabel('E-mail address').fill(user.email);
  await form.getByLabel('Name').fill(user.name);
  await form.getByLabel('Role').selectOption(user.role);
  await form.getByLabel('Password').fill(user.password);
  await form.getByRole('button', { name: 'Create user' }).click();
  await expect(
    page.getByRole('table', { name: 'Users' }).locator(`tr[data-email="${user.email}"]`)
  ).toBeVisible();
}

/**
 * Signs the admin in on `page`, creates this user through the Users page and returns a page
 * of their own, signed in.
 */
export async function adminAddsAndSignsIn(
  page: Page,
  browser: Browser,
  user: { email: string; name: string; role: string; password: string }
): Promise<Page> {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await addUser(page, user);
  return signedInPage(browser, user.email, user.password);
}

/** An operator API key made through the console's own API, from the signed-in page. */
export async function apiKey(page: Page, name: string): Promise<string> {
  return page.evaluate(async (keyName) => {
    const res = await fetch('/api/trpc/credentials.apiKeys.create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: keyName, role: 'operator' })
    });
    const body = (await res.json()) as { result: { data: { key: string } } };
    return body.result.data.key;
  }, name);
}
