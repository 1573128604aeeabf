import { describe, expect, it } from 'vitest';
import { RecentMap } from './recent-map';

describe('RecentMap', () => {
  it('keeps at most its capacity, dropping the least recently read or written', () => {
    const map = new RecentMap<string, number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.get('a')).toBe(1); // a is now the most recent; b the least
    map.set('d', 4);
    expect(map.size).toBe(3);
    expect(map.get('b')).toBeUndefined();
    map.set('c', 30); // rewriting c marks it used: a goes next
    map.set('e', 5);
    expect([map.get('a'), map.get('c'), map.get('d'), map.get('e')]).toEqual([undefined, 30, 4, 5]);
    map.delete('d');
    expect(map.size).toBe(2);
    for (let i = 0; i < 1000; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(3);
  });
});
