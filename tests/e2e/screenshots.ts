import type { Page, TestInfo } from '@playwright/test';

/**
 * Saves the page light and dark, at 1280×800 and 390 px wide, as `<name>-<size>-<scheme>.png`
 * among the test's artifacts (`testInfo.outputPath`, attached to its report), then gives the page
 * back its theme and viewport. The console's theme is the `data-theme` attribute (from the
 * `berth_theme` cookie) over `prefers-color-scheme`, so both are set for the shot.
 */
export async function screenshots(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const before = await page.evaluate(() => document.documentElement.dataset.theme ?? '');
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((s) => (document.documentElement.dataset.theme = s), scheme);
    for (const [label, width, height] of [
      ['desktop', 1280, 800],
      ['390px', 390, 844]
    ] as const) {
      await page.setViewportSize({ width, height });
      const path = testInfo.outputPath(`${name}-${label}-${scheme}.png`);
      await page.screenshot({ path });
      await testInfo.attach(`${name} ${label} ${scheme}`, { path, contentType: 'image/png' });
    }
  }
  await page.emulateMedia({ colorScheme: null });
  await page.evaluate((t) => (document.documentElement.dataset.theme = t), before);
  await page.setViewportSize(viewport);
}
