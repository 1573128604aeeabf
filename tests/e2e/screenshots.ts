import type { Page, TestInfo } from '@playwright/test';

/** Light and dark, desktop and 390 px wide, saved in the test's output and attached to its report. */
export async function screenshots(page: Page, info: TestInfo, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [label, width, height] of [
      ['desktop', 1280, 800],
      ['390px', 390, 844]
    ] as const) {
      await page.setViewportSize({ width, height });
      const path = info.outputPath(`${name}-${label}-${scheme}.png`);
      await page.screenshot({ path });
      await info.attach(`${name} ${label} ${scheme}`, { path, contentType: 'image/png' });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}
