/**
 * The editor's parse of its document: reparsed on every change (a 1,000-line file parses in a
 * couple of milliseconds), shared by highlighting, completion, hover and formatting. The model
 * (stages, scopes) is built on demand and kept until the next change or options change.
 */
import { Facet, StateField, type EditorState } from '@codemirror/state';
import { buildModel, type BuildFileModel, type ModelOptions } from '$lib/buildfile/model';
import { parse } from '$lib/buildfile/parser';
import type { ParseResult } from '$lib/buildfile/types';
import { LineIndex } from '$lib/buildfile/editor/positions';

/** Target and build arguments the model is built with (the last one given wins). */
export const modelOptions = Facet.define<ModelOptions, ModelOptions>({
  combine: (values) => values[values.length - 1] ?? {}
});

export interface Parsed {
  parse: ParseResult;
  index: LineIndex;
  source: string;
}

export const parsedField = StateField.define<Parsed>({
  create: (state) => parseDoc(state.doc.toString()),
  update: (value, tr) => (tr.docChanged ? parseDoc(tr.newDoc.toString()) : value)
});

function parseDoc(source: string): Parsed {
  return { parse: parse(source), index: new LineIndex(source), source };
}

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
