import { isSecretHeader } from './headers';

/** One row of the wizard's payload tree. */
export interface PayloadNode {
  /** `headers.x-name`, `body.a.items[0].id`: what a condition or placeholder names. */
  reference: string;
  /** The key or index shown for this row. */
  label: string;
  depth: number;
  /** Scalars (and empty objects or arrays) are leaves: a condition or placeholder can use them. */
  leaf: boolean;
  /** The value as a condition would hold it: the scalar itself, or a short summary. */
  value: unknown;
  summary: string;
}

/** Keys the template syntax can name: no dots, brackets, braces or spaces. */
const SEGMENT_OK = /^[^.[\]{}\s]+$/;
const HIDDEN = new Set(['__proto__', 'prototype', 'constructor']);
/** The tree stops here: a huge payload still renders at once. */
export const TREE_MAX_NODES = 400;

/**
 * A delivery's headers and body as a flat tree, in document order, with the reference each
 * field has in the mapping syntax (the one `src/lib/webhooks/template.ts` resolves). Headers
 * a mapping never sees (credentials) are left out; keys the syntax cannot name are skipped.
 */
export function payloadTree(sample: {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: unknown;
}): { nodes: PayloadNode[]; cut: boolean } {
  const nodes: PayloadNode[] = [];
  let cut = false;
  const push = (node: PayloadNode): boolean => {
    if (nodes.length >= TREE_MAX_NODES) {
      cut = true;
      return false;
    }
    nodes.push(node);
    return true;
  };
  for (const [name, value] of Object.entries(sample.headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || isSecretHeader(lower) || !SEGMENT_OK.test(lower)) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    push({
      reference: `headers.${lower}`,
      label: lower,
      depth: 1,
      leaf: true,
      value: text,
      summary: text
    });
  }
  const walk = (value: unknown, reference: string, label: string, depth: number): void => {
    const container = value !== null && typeof value === 'object';
    const entries = container ? Object.entries(value) : [];
    if (
      !push({
        reference,
        label,
        depth,
        leaf: entries.length === 0,
        value,
        summary: summarize(value)
      })
    )
      return;
    if (!Array.isArray(value)) {
      for (const [key, child] of entries)
        if (SEGMENT_OK.test(key) && !HIDDEN.has(key))
          walk(child, `${reference}.${key}`, key, depth + 1);
      return;
    }
    value.forEach((child, i) => walk(child, `${reference}[${i}]`, `[${i}]`, depth + 1));
  };
  if (sample.body !== undefined) walk(sample.body, 'body', 'body', 0);
  return { nodes, cut };
}

function summarize(value: unknown): string {
  if (Array.isArray(value)) return `[${value.length} item${value.length === 1 ? '' : 's'}]`;
  if (value !== null && typeof value === 'object') return `{${Object.keys(value).length} keys}`;
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** A clicked field as a condition line of the mapping form (`reference = value`). */
export function conditionLine(node: PayloadNode): string {
  const value = typeof node.value === 'string' ? node.value : JSON.stringify(node.value);
  return `${node.reference} = ${value}`;
}
