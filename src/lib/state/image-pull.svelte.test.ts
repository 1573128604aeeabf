import { describe, expect, it } from 'vitest';
import { layerShare } from './image-pull.svelte';

describe('a pulled layer’s share done', () => {
  it('is the bytes downloaded over the total, whole once complete or held', () => {
    expect(layerShare({ id: 'a', status: 'Downloading', current: 5, total: 20 })).toBe(0.25);
    expect(layerShare({ id: 'a', status: 'Extracting', current: 30, total: 20 })).toBe(1);
    expect(layerShare({ id: 'a', status: 'Pull complete', current: 5, total: 20 })).toBe(1);
    expect(layerShare({ id: 'a', status: 'Already exists' })).toBe(1);
  });

  it('is unknown without byte counts', () => {
    expect(layerShare({ id: 'a', status: 'Waiting' })).toBeNull();
    expect(layerShare({ id: 'a', status: 'Pulling fs layer', current: 0, total: 0 })).toBeNull();
  });
});
