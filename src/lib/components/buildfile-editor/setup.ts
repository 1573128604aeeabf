/**
 * The editor's extensions: our parser-driven highlighting and theme, diagnostics, completion,
 * hover docs, formatting, search and replace, and the standard keymaps. What changes with the
 * component's props sits in compartments (see BuildFileEditor.svelte).
 */
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { forEachDiagnostic, lintGutter, lintKeymap } from '@codemirror/lint';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { EditorState, type Extension } from '@codemirror/state';
import {
  crosshairCursor,
  drawSelection,
  dropCursor,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  rectangularSelection
} from '@codemirror/view';
import { buildFileCompletion, buildFileHover, formatDocument } from './assist';
import { buildFileHighlight } from './highlight';
import { lintRunner } from './lint-runner';
import { parsedField } from './parsed';
import { buildFileTheme } from './theme';

/** Ctrl+.: applies the first fix of a diagnostic under the cursor. */
export function quickFix(view: EditorView): boolean {
  const head = view.state.selection.main.head;
  let done = false;
  forEachDiagnostic(view.state, (d, from, to) => {
    if (done || head < from || head > to || !d.actions?.length) return;
    d.actions[0]!.apply(view, from, to);
    done = true;
  });
  return done;
}

export interface SetupHandlers {
  onsave: () => void;
  onhelp: () => void;
}

export function buildFileSetup(handlers: SetupHandlers): Extension {
  return [
    parsedField,
    // Before the highlighter: a change is posted to the lint worker before this thread parses.
    lintRunner,
    buildFileHighlight,
    buildFileTheme,
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    dropCursor(),
    EditorState.allowMultipleSelections.of(true),
    EditorState.languageData.of(() => [{ commentTokens: { line: '#' } }]),
    closeBrackets(),
    rectangularSelection(),
    crosshairCursor(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    search({ top: true }),
    autocompletion({ override: [buildFileCompletion], icons: false }),
    buildFileHover,
    lintGutter(),
    keymap.of([
      { key: 'Shift-Alt-f', run: formatDocument, preventDefault: true },
      { key: 'Mod-.', run: quickFix, preventDefault: true },
      {
        key: 'Mod-s',
        run: () => {
          handlers.onsave();
          return true;
        },
        preventDefault: true
      },
      {
        key: 'F1',
        run: () => {
          handlers.onhelp();
          return true;
        },
        preventDefault: true
      },
      ...closeBracketsKeymap,
      ...defaultKeymap,
      ...searchKeymap,
      ...historyKeymap,
      ...completionKeymap,
      ...lintKeymap,
      indentWithTab
    ])
  ];
}
