/**
 * The system Chromium (no browser is ever downloaded here) and the flags every run gives it:
 * e2e tests (playwright.config.ts) and the benches that drive a browser.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run'
];
