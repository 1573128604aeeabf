/**
 * The editor's parse of its document: redone for every change (a 1,000-line file parses in a
 * couple of milliseconds), shared by highlighting, completion, hover and formatting. The model
 * (stages, scopes) is built on demand and kept until the next change or options change.
 */
import { Facet, StateField, type EditorState, type Text } from '@codemirror/state';
import { buildModel, type BuildFileModel, type ModelOptions } from '$lib/buildfile/model';
import { parse } from '$lib/buildfile/parser';
import type { ParseResult } from '$lib/buildfile/types';
import { LineIndex } from '$lib/buildfile/editor/positions';

/** Target and build arguments the model is built with (the last one given wins). */
export const modelOptions = Facet.define<ModelOptions, ModelOptions>({
  combine: (values) => values[values.length - 1] ?? {}
});

/**
 * The parse of one version of the document, made when first asked for: a keystroke's
 * transaction does not wait for it, so the lint worker gets the text first (lint-runner.ts
 * posts it before the highlighter reads the parse).
 */
export class Parsed {
  private cached: { source: string; parse: ParseResult; index: LineIndex } | undefined;

  constructor(private readonly doc: Text) {}

  private get value() {
    if (!this.cached) {
      const source = this.doc.toString();
      this.cached = { source, parse: parse(source), index: new LineIndex(source) };
    }
    return this.cached;
  }
  get source(): string {
    return this.value.source;
  }
  get parse(): ParseResult {
    return this.value.parse;
  }
  get index(): LineIndex {
    return this.value.index;
  }
}

export const parsedField = StateField.define<Parsed>({
  create: (state) => new Parsed(state.doc),
  update: (value, tr) => (tr.docChanged ? new Parsed(tr.newDoc) : value)
});

const models = new WeakMap<Parsed, { options: ModelOptions; model: BuildFileModel }>();

export function modelOf(state: EditorState): BuildFileModel {
  const parsed = state.field(parsedField);
  const options = state.facet(modelOptions);
  const cached = models.get(parsed);
  if (cached && cached.options === options) return cached.model;
  const model = buildModel(parsed.parse, options);
  models.set(parsed, { options, model });
  return model;
}
