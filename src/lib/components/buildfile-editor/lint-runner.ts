/**
 * Diagnostics as you type: after each change the document is linted — in a Web Worker unless
 * told otherwise, one lint at a time, changes made meanwhile coalesced into the next — and the
 * result shown through @codemirror/lint when the document has not changed meanwhile. Each diagnostic carries its hint, its rule id with a
 * link to the rule's documentation, and its quick fix as an action; a fix is mapped through the
 * edits made since the lint, so it applies to the text it was computed for.
 */
import { ChangeSet, Facet, type EditorState, type Text } from '@codemirror/state';
import { EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view';
import { setDiagnostics, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import { lintBuildFile, type Diagnostic, type LintOptions } from '$lib/buildfile/lint';
import { fixChanges, LineIndex } from '$lib/buildfile/editor/positions';
import { ruleUrl } from '$lib/buildfile/editor/rules';

/** Lint options that survive structured cloning into the worker (no functions). */
export type EditorLintOptions = Omit<LintOptions, 'imageEnv'>;

export interface LintSettings {
  options: EditorLintOptions;
  /** Where lintBuildFile runs. */
  where: 'worker' | 'main';
  /** Milliseconds after the last change. */
  delay: number;
  /** Called once the diagnostics of the current document are shown. */
  onresult?: (diagnostics: readonly Diagnostic[]) => void;
}

export const lintSettings = Facet.define<LintSettings, LintSettings>({
  combine: (values) => values[values.length - 1] ?? { options: {}, where: 'main', delay: 0 }
});

type Lint = (source: string, options: EditorLintOptions) => Promise<Diagnostic[]>;

const mainThread: Lint = (source, options) =>
  Promise.resolve(lintBuildFile(source, options).diagnostics);

function workerLint(): { lint: Lint; stop(): void } | undefined {
  let worker: Worker;
  try {
    worker = new Worker(new URL('./lint.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return undefined;
  }
  let next = 0;
  let failed = false;
  const waiting = new Map<number, (d: Diagnostic[] | null) => void>();
  worker.onmessage = (event: MessageEvent<{ id: number; diagnostics: Diagnostic[] }>) => {
    waiting.get(event.data.id)?.(event.data.diagnostics);
    waiting.delete(event.data.id);
  };
  // A worker that cannot start (blocked, failed to load): lint on the main thread from then on.
  worker.onerror = () => {
    failed = true;
    for (const resolve of waiting.values()) resolve(null);
    waiting.clear();
  };
  return {
    lint: (source, options) => {
      if (failed) return mainThread(source, options);
      const id = ++next;
      return new Promise<Diagnostic[] | null>((resolve) => {
        waiting.set(id, resolve);
        worker.postMessage({ id, source, options });
      }).then((d) => d ?? mainThread(source, options));
    },
    stop: () => worker.terminate()
  };
}

export const lintRunner = ViewPlugin.fromClass(
  class {
    private timer: ReturnType<typeof setTimeout> | undefined;
    private worker: ReturnType<typeof workerLint> | null = null;
    /** A lint is in flight; `stale` says the text changed meanwhile and wants another. */
    private running = false;
    private stale = false;
    /** The document last shown with diagnostics, and the edits since. */
    private linted: Text | undefined;
    private since: ChangeSet | undefined;

    constructor(private readonly view: EditorView) {
      this.timer = setTimeout(() => void this.run(this.view.state), 0);
    }

    update(update: ViewUpdate) {
      if (update.docChanged) {
        if (this.since) this.since = this.since.compose(update.changes);
        this.schedule(update.state);
      } else if (update.startState.facet(lintSettings) !== update.state.facet(lintSettings)) {
        this.schedule(update.state);
      }
    }

    /**
     * One lint at a time: a change while one runs marks it stale, and the next starts as soon
     * as it returns. With no wait (`delay` 0, the worker) the text is posted at once, from the
     * update itself (the highlighter's parse on this thread runs meanwhile), so each key is
     * linted as typed and a burst collapses into the lints the worker keeps up with.
     */
    private schedule(state: EditorState) {
      if (this.running) {
        this.stale = true;
        return;
      }
      clearTimeout(this.timer);
      const delay = state.facet(lintSettings).delay;
      if (delay === 0) void this.run(state);
      else this.timer = setTimeout(() => void this.run(this.view.state), delay);
    }

    private linter(settings: LintSettings): Lint {
      if (settings.where === 'main') return mainThread;
      if (this.worker === null) this.worker = workerLint();
      return this.worker?.lint ?? mainThread;
    }

    private async run(state: EditorState) {
      if (this.running || this.destroyed) return;
      this.running = true;
      this.stale = false;
      const settings = state.facet(lintSettings);
      const doc = state.doc;
      const source = doc.toString();
      let diagnostics: Diagnostic[];
      try {
        diagnostics = await this.linter(settings)(source, settings.options);
      } finally {
        this.running = false;
      }
      if (this.destroyed) return;
      // The text or the options changed meanwhile: this result is for a text no longer shown.
      const now = this.view.state;
      if (this.stale || now.doc !== doc || now.facet(lintSettings) !== settings) {
        void this.run(now);
        return;
      }
      const index = new LineIndex(source);
      this.linted = doc;
      this.since = ChangeSet.empty(doc.length);
      this.view.dispatch(
        setDiagnostics(
          now,
          diagnostics.map((d) => this.toCodeMirror(d, index, doc))
        )
      );
      settings.onresult?.(diagnostics);
    }

    private destroyed = false;

    private toCodeMirror(d: Diagnostic, index: LineIndex, doc: Text): CmDiagnostic {
      const from = index.offset(d.line, d.column);
      const to = Math.max(from, index.offset(d.endLine, d.endColumn));
      const fix = d.fix;
      return {
        from,
        to,
        severity: d.severity,
        message: d.message,
        renderMessage: () => renderMessage(d),
        actions: fix
          ? [
              {
                name: fix.title,
                apply: (view) => {
                  if (this.linted !== doc || !this.since) return;
                  const since = this.since;
                  view.dispatch({
                    changes: fixChanges(index, fix).map((c) => ({
                      from: since.mapPos(c.from, 1),
                      to: since.mapPos(c.to, -1),
                      insert: c.insert
                    })),
                    userEvent: 'input.fix'
                  });
                }
              }
            ]
          : []
      };
    }

    destroy() {
      this.destroyed = true;
      clearTimeout(this.timer);
      this.worker?.stop();
    }
  }
);

function renderMessage(d: Diagnostic): HTMLElement {
  const root = document.createElement('div');
  const message = root.appendChild(document.createElement('div'));
  message.className = 'cm-bf-message';
  message.textContent = d.message;
  if (d.hint) {
    const hint = root.appendChild(document.createElement('div'));
    hint.className = 'cm-bf-hint';
    hint.textContent = d.hint;
  }
  const rule = root.appendChild(document.createElement('div'));
  rule.className = 'cm-bf-rule';
  const link = rule.appendChild(document.createElement('a'));
  link.href = ruleUrl(d.rule, d.url);
  link.target = '_blank';
  link.rel = 'noopener noreferrer';
  link.textContent = d.rule;
  link.title = `Documentation of ${d.rule}`;
  return root;
}
