import { describe, expect, it } from 'vitest';
import { buildModel } from '../model.ts';
import { parse } from '../parser.ts';
import { stageGraph, stageOutline } from './outline.ts';

const SOURCE = `FROM golang:1.23 AS deps
RUN go mod download
FROM deps AS build
RUN --mount=type=cache,from=deps,target=/go go build
FROM node:22 AS web
RUN npm ci
FROM alpine:3.20 AS test
COPY --from=build /app /app
FROM alpine:3.20
COPY --from=build /app /app
COPY --from=web /dist /srv
`;

const model = (target?: string) => buildModel(parse(SOURCE), { target });

describe('stage outline and graph', () => {
  it('lists every stage with its base, line, and the last stage as the default target', () => {
    const outline = stageOutline(model());
    expect(outline.map((s) => [s.label, s.base, s.line])).toEqual([
      ['deps', 'golang:1.23', 1],
      ['build', 'deps', 3],
      ['web', 'node:22', 5],
      ['test', 'alpine:3.20', 7],
      ['stage 4', 'alpine:3.20', 9]
    ]);
    expect(outline.filter((s) => s.isTarget).map((s) => s.index)).toEqual([4]);
    expect(outline.filter((s) => s.inTarget).map((s) => s.label)).toEqual([
      'deps',
      'build',
      'web',
      'stage 4'
    ]);
  });

  it('draws one edge per pair of stages, with every way one uses the other', () => {
    const graph = stageGraph(model());
    expect(graph.edges.map((e) => [e.from, e.to, e.via, e.inTarget])).toEqual([
      [0, 1, ['from', 'mount'], true],
      [1, 3, ['copy'], false],
      [1, 4, ['copy'], true],
      [2, 4, ['copy'], true]
    ]);
    // Layers: deps and web on top, build below deps, test and the final stage below build.
    const y = graph.nodes.map((n) => n.y);
    expect(y[0]).toBe(y[2]);
    expect(y[1]).toBeGreaterThan(y[0]!);
    expect(y[3]).toBe(y[4]);
    expect(y[3]).toBeGreaterThan(y[1]!);
    expect(graph.nodes[3]!.x).not.toBe(graph.nodes[4]!.x);
    expect(graph.width).toBeGreaterThan(0);
    expect(graph.edges[0]!.path).toMatch(/^M[\d.]+,[\d.]+ C/);
  });

  it('follows the target: only the stages it needs are on the path', () => {
    const graph = stageGraph(model('test'));
    expect(graph.nodes.filter((n) => n.inTarget).map((n) => n.label)).toEqual([
      'deps',
      'build',
      'test'
    ]);
    expect(graph.edges.filter((e) => e.inTarget).map((e) => [e.from, e.to])).toEqual([
      [0, 1],
      [1, 3]
    ]);
  });
});
