import type { Page, TestInfo } from '@playwright/test';

/**
 * Saves the page as `<name>-light.png` and `<name>-dark.png` among the test's artifacts
 * (`testInfo.outputPath`), then gives the page back its theme. The console's theme is the
 * `data-theme` attribute (from the `berth_theme` cookie) over `prefers-color-scheme`, so both
 * are set for the shot.
 */
export async function screenshots(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const before = await page.evaluate(() => document.documentElement.dataset.theme ?? '');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((s) => (document.documentElement.dataset.theme = s), scheme);
    await page.screenshot({ path: testInfo.outputPath(`${name}-${scheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: null });
  await page.evaluate((t) => (document.documentElement.dataset.theme = t), before);
}
