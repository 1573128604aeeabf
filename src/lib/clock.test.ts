import { describe, expect, it } from 'vitest';
import { browserClock, parseClock } from './clock';

describe('parseClock', () => {
  it('reads a locale and a zone, and refuses what Intl does not know', () => {
    expect(parseClock('en-GB Europe/Paris')).toEqual({ locale: 'en-GB', timeZone: 'Europe/Paris' });
    expect(parseClock(browserClock())).not.toBeNull();
    expect(parseClock('en-GB Mars/Olympus')).toBeNull();
    expect(parseClock('en-GB')).toBeNull();
    expect(parseClock(undefined)).toBeNull();
    expect(parseClock('x'.repeat(200))).toBeNull();
  });
});
