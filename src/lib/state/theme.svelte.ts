/** The console theme: system, light or dark, kept in the `berth_theme` cookie so the server renders it. */

export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEMES)[number];

const COOKIE = 'berth_theme';
const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

export class ThemeState {
  choice = $state<ThemeChoice>('system');

  constructor(initial: ThemeChoice = 'system') {
    this.choice = initial;
  }

  /** What the server rendered into <html data-theme>; only call it in the browser. */
  static fromDocument(): ThemeState {
    const rendered = document.documentElement.dataset.theme;
    return new ThemeState(isThemeChoice(rendered) ? rendered : 'system');
  }

  set(choice: ThemeChoice): void {
    this.choice = choice;
    document.documentElement.dataset.theme = choice;
    document.cookie = `${COOKIE}=${choice}; path=/; max-age=${ONE_YEAR_SECONDS}; samesite=lax`;
  }
}
