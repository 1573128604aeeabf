import { describe, expect, it } from 'vitest';
import { previewPrune } from './prune-preview';

const lists: Parameters<typeof previewPrune>[1] = {
  containers: [
    {
      Id: 'c1',
      Names: ['/old'],
      State: 'exited',
      ImageID: 'sha256:dangling-used',
      Labels: { 'berth.test': 'x' },
      NetworkSettings: { Networks: { only: { NetworkID: 'n-only' } } },
      Mounts: [{ Type: 'volume', Name: 'data-old' }]
    },
    {
      Id: 'c2',
      Names: ['/web'],
      State: 'running',
      ImageID: 'sha256:web',
      Labels: {},
      NetworkSettings: { Networks: { shared: { NetworkID: 'n-shared' } } },
      Mounts: [{ Type: 'volume', Name: 'data-web' }, { Type: 'bind' }]
    }
  ],
  images: [
    { Id: 'sha256:dangling-used', RepoTags: null, Labels: { 'berth.test': 'x' } },
    { Id: 'sha256:web', RepoTags: ['web:1'], Labels: null },
    { Id: 'sha256:other', RepoTags: ['<none>:<none>'], Labels: null }
  ],
  networks: [
    { Id: 'n-bridge', Name: 'bridge', Labels: {} },
    { Id: 'n-only', Name: 'only', Labels: { 'berth.test': 'x' } },
    { Id: 'n-shared', Name: 'shared', Labels: { 'berth.test': 'x' } }
  ],
  volumes: [
    { Name: 'data-old', Labels: null },
    { Name: 'data-web', Labels: null }
  ]
};
const all = { containers: true, images: true, networks: true, volumes: true, label: [] };

describe('system prune preview', () => {
  it('counts what only the pruned containers used as going in the same run', () => {
    expect(previewPrune(all, lists)).toEqual({
      containers: ['old'],
      networks: ['only'],
      volumes: ['data-old'],
      images: ['sha256:dangling-used', 'sha256:other']
    });
  });

  it('keeps what a remaining container uses when containers are not pruned', () => {
    const preview = previewPrune({ ...all, containers: false }, lists);
    expect(preview.containers).toEqual([]);
    expect(preview.networks).toEqual([]);
    expect(preview.volumes).toEqual([]);
    expect(preview.images).toEqual(['sha256:other']);
  });

  it('applies the label filter to every kind, key=value and bare key alike', () => {
    expect(previewPrune({ ...all, label: ['berth.test=x'] }, lists)).toEqual({
      containers: ['old'],
      networks: ['only'],
      volumes: [],
      images: ['sha256:dangling-used']
    });
    expect(previewPrune({ ...all, label: ['berth.test'] }, lists).images).toEqual([
      'sha256:dangling-used'
    ]);
  });
});
