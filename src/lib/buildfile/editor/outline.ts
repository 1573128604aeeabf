/**
 * The outline of a build file's stages and the drawn graph of their dependencies: one node per
 * stage, an edge from each stage depended on (`FROM <stage>`, `COPY --from`, `RUN --mount=from`)
 * to the stage using it, and the path the target needs marked. Layers run top to bottom: a
 * stage sits one layer below the deepest stage it uses (stages only use earlier ones).
 */

import type { BuildFileModel, StageDependency } from '../model.ts';

export interface OutlineStage {
  index: number;
  name?: string;
  /** The name, or `stage N` for an unnamed one. */
  label: string;
  base: string;
  /** 1-based line of its FROM. */
  line: number;
  /** The target, or a stage the target needs. */
  inTarget: boolean;
  isTarget: boolean;
}

export interface GraphNode extends OutlineStage {
  x: number;
  y: number;
}

export interface GraphEdge {
  from: number;
  to: number;
  via: StageDependency['via'][];
  /** Both ends on the target's path. */
  inTarget: boolean;
  /** An SVG path from the bottom of `from` to the top of `to`. */
  path: string;
}

export interface StageGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
}

export const NODE = { width: 116, height: 40, gapX: 12, gapY: 36, pad: 6 };

export function stageOutline(model: BuildFileModel): OutlineStage[] {
  const needed = new Set(model.targetStages.map((s) => s.index));
  return model.stages.map((stage) => ({
    index: stage.index,
    name: stage.name,
    label: stage.name ?? `stage ${stage.index}`,
    base: stage.base,
    line: stage.from.range.line,
    inTarget: needed.has(stage.index),
    isTarget: model.target?.index === stage.index
  }));
}

export function stageGraph(model: BuildFileModel): StageGraph {
  const outline = stageOutline(model);
  const layers: number[] = [];
  const edges = new Map<string, Omit<GraphEdge, 'path'>>();
  for (const stage of model.stages) {
    let layer = 0;
    for (const dep of stage.dependencies) {
      if (dep.stage >= stage.index) continue; // refused by the linter; drawn nowhere
      layer = Math.max(layer, layers[dep.stage]! + 1);
      const key = `${dep.stage}>${stage.index}`;
      const edge = edges.get(key);
      if (edge) {
        if (!edge.via.includes(dep.via)) edge.via.push(dep.via);
      } else {
        edges.set(key, {
          from: dep.stage,
          to: stage.index,
          via: [dep.via],
          inTarget: outline[dep.stage]!.inTarget && outline[stage.index]!.inTarget
        });
      }
    }
    layers.push(layer);
  }
  const columns: number[] = [];
  const nodes = outline.map((stage, i): GraphNode => {
    const layer = layers[i]!;
    const column = (columns[layer] = (columns[layer] ?? -1) + 1);
    return {
      ...stage,
      x: NODE.pad + column * (NODE.width + NODE.gapX),
      y: NODE.pad + layer * (NODE.height + NODE.gapY)
    };
  });
  const width = Math.max(0, ...columns.map((c) => c + 1)) * (NODE.width + NODE.gapX) - NODE.gapX;
  const height = columns.length * (NODE.height + NODE.gapY) - NODE.gapY;
  return {
    nodes,
    edges: [...edges.values()].map((edge) => {
      const a = nodes[edge.from]!;
      const b = nodes[edge.to]!;
      const x1 = a.x + NODE.width / 2;
      const y1 = a.y + NODE.height;
      const x2 = b.x + NODE.width / 2;
      const y2 = b.y;
      const bend = (y2 - y1) / 2;
      return {
        ...edge,
        path: `M${x1},${y1} C${x1},${y1 + bend} ${x2},${y2 - bend} ${x2},${y2}`
      };
    }),
    width: Math.max(0, width) + 2 * NODE.pad,
    height: Math.max(0, height) + 2 * NODE.pad
  };
}
