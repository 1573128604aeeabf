/**
 * Completion, hover documentation and the format command, each a thin CodeMirror wrapper over
 * the pure logic in $lib/buildfile/editor.
 */
import type { CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { Facet } from '@codemirror/state';
import { hoverTooltip, type EditorView } from '@codemirror/view';
import { completeBuildFile } from '$lib/buildfile/editor/completion';
import { formatEdits } from '$lib/buildfile/editor/format';
import { hoverAt } from '$lib/buildfile/editor/hover';
import { editChange } from '$lib/buildfile/editor/positions';
import { modelOf, parsedField } from './parsed';

/** Images the engine knows, offered after FROM. */
export const baseImages = Facet.define<readonly string[], readonly string[]>({
  combine: (values) => values[values.length - 1] ?? []
});

export function buildFileCompletion(context: CompletionContext): CompletionResult | null {
  const { state, pos } = context;
  const parsed = state.field(parsedField);
  const result = completeBuildFile(
    parsed.source,
    pos,
    { parse: parsed.parse, model: () => modelOf(state), baseImages: state.facet(baseImages) },
    parsed.index
  );
  // Typing a word opens the list; at an empty spot only Ctrl+Space, a trigger character
  // (`$`, `{`, `=`, `,`) or a FROM waiting for its image does.
  if (!result) return null;
  const opens = /[${=,]$/.test(parsed.source.slice(Math.max(0, pos - 1), pos));
  if (pos === result.from && !context.explicit && !opens && result.kind !== 'image') return null;
  const ordered = result.kind === 'flag-value' || result.kind === 'image';
  return {
    from: result.from,
    // Values and stages keep their order (stage order, mount types as documented).
    options: result.items.map((item, i) => ({
      boost: ordered ? -Math.min(i, 99) : 0,
      label: item.label,
      type: item.type,
      detail: item.detail,
      info: item.info,
      apply: item.apply
    })),
    validFor: /^[\w.:/$+-]*$/
  };
}

export const buildFileHover = hoverTooltip((view, pos) => {
  const parsed = view.state.field(parsedField);
  const { line, column } = parsed.index.position(pos);
  const hover = hoverAt(parsed.parse, line, column);
  if (!hover) return null;
  const from = parsed.index.offset(hover.range.line, hover.range.column);
  const to = parsed.index.offset(hover.range.endLine, hover.range.endColumn);
  return {
    pos: from,
    end: to,
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'cm-bf-doc';
      const title = dom.appendChild(document.createElement('div'));
      title.className = 'cm-bf-doc-title';
      title.textContent = hover.title;
      const syntax = dom.appendChild(document.createElement('div'));
      syntax.className = 'cm-bf-doc-syntax';
      syntax.textContent = hover.doc.syntax;
      dom.appendChild(document.createElement('div')).textContent = hover.doc.summary;
      const link = dom.appendChild(document.createElement('a'));
      link.href = hover.doc.url;
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
      link.textContent = 'Dockerfile reference';
      return { dom };
    }
  };
});

/** Shift+Alt+F: keywords upper-cased, spacing after them normalised (see format.ts). */
export function formatDocument(view: EditorView): boolean {
  if (view.state.readOnly) return false;
  const parsed = view.state.field(parsedField);
  const changes = formatEdits(parsed.source, parsed.parse).map((edit) =>
    editChange(parsed.index, edit)
  );
  if (changes.length) view.dispatch({ changes, userEvent: 'format' });
  return true;
}
