/**
 * The reader's locale and time zone, remembered in a cookie so server-rendered times match
 * what the browser shows. Without it (a first visit) times render once the page hydrates.
 */
export const CLOCK_COOKIE = 'berth_clock';

export interface Clock {
  locale: string;
  timeZone: string;
}

/** The cookie's value, or null when it is absent or names no real locale or zone. */
export function parseClock(value: string | undefined): Clock | null {
  if (!value || value.length > 100) return null;
  const [locale, timeZone] = value.split(' ');
  if (!locale || !timeZone) return null;
  try {
    const resolved = new Intl.DateTimeFormat(locale, { timeZone }).resolvedOptions();
    return { locale: resolved.locale, timeZone: resolved.timeZone };
  } catch {
    // An unknown locale or zone (RangeError): as if there were no cookie.
    return null;
  }
}

/** The browser's clock as the cookie value (`<locale> <zone>`, both free of spaces). */
export function browserClock(): string {
  const { locale, timeZone } = new Intl.DateTimeFormat().resolvedOptions();
  return `${locale} ${timeZone}`;
}
