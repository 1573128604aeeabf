import { describe, expect, it } from 'vitest';
import { conditionLine, payloadTree, TREE_MAX_NODES } from './payload-tree';
import { preview } from './preview';

describe('payloadTree', () => {
  const sample = {
    headers: {
      'X-GitHub-Event': 'push',
      authorization: 'Bearer s3cret',
      'x-hub-signature-256': 'sha256=ab'
    },
    body: { ref: 'refs/heads/main', commits: [{ id: 'c1' }], 'a.b': 1, empty: {}, n: 3 }
  };

  it('lists headers (no credentials) and body fields with references the template resolves', () => {
    const { nodes, cut } = payloadTree(sample);
    expect(cut).toBe(false);
    expect(nodes.map((n) => n.reference)).toEqual([
      'headers.x-github-event',
      'body',
      'body.ref',
      'body.commits',
      'body.commits[0]',
      'body.commits[0].id',
      'body.empty',
      'body.n'
    ]);
    expect(JSON.stringify(nodes)).not.toContain('s3cret');
    // Every leaf, used as a condition, holds for the sample it came from.
    for (const node of nodes.filter((n) => n.leaf && n.depth > 0)) {
      const [reference, value] = conditionLine(node).split(' = ');
      const parsed = (() => {
        try {
          return JSON.parse(value!) as unknown;
        } catch {
          return value;
        }
      })();
      const result = preview(
        { match: { [reference!]: parsed }, message: `{${reference}}` },
        sample
      );
      expect(result.matched, node.reference).toBe(true);
    }
  });

  it('stops at the node cap and says so', () => {
    const body = { items: Array.from({ length: 1_000 }, (_, i) => i) };
    const { nodes, cut } = payloadTree({ headers: {}, body });
    expect(nodes).toHaveLength(TREE_MAX_NODES);
    expect(cut).toBe(true);
  });
});
