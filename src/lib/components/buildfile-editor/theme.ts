/**
 * The editor's look, from the console's CSS variables: each is a light-dark() pair chosen by
 * <html data-theme>, so the editor follows the console's theme without being told.
 */
import { EditorView } from '@codemirror/view';

export const buildFileTheme = EditorView.theme({
  '&': {
    color: 'var(--text)',
    backgroundColor: 'var(--surface)',
    fontSize: '0.875rem',
    height: '100%'
  },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.55' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection':
    { backgroundColor: 'var(--accent-soft)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--surface-2) 70%, transparent)' },
  '.cm-gutters': {
    backgroundColor: 'var(--surface-2)',
    color: 'var(--text-faint)',
    borderRight: '1px solid var(--border)'
  },
  '.cm-activeLineGutter': { backgroundColor: 'var(--surface-hover)', color: 'var(--text)' },
  '.cm-searchMatch': {
    backgroundColor: 'color-mix(in srgb, var(--warning) 25%, transparent)',
    outline: '1px solid var(--warning)'
  },
  '.cm-searchMatch.cm-searchMatch-selected': {
    backgroundColor: 'color-mix(in srgb, var(--accent) 30%, transparent)'
  },
  '.cm-panels': {
    backgroundColor: 'var(--surface-2)',
    color: 'var(--text)',
    borderColor: 'var(--border)'
  },
  '.cm-panels.cm-panels-top': { borderBottom: '1px solid var(--border)' },
  '.cm-panels.cm-panels-bottom': { borderTop: '1px solid var(--border)' },
  '.cm-panel input, .cm-panel button, .cm-textfield, .cm-button': {
    color: 'var(--text)',
    backgroundColor: 'var(--surface)',
    backgroundImage: 'none',
    border: '1px solid var(--border-strong)',
    borderRadius: 'var(--radius-sm)'
  },
  '.cm-tooltip': {
    backgroundColor: 'var(--surface)',
    color: 'var(--text)',
    border: '1px solid var(--border)',
    borderRadius: 'var(--radius-sm)',
    boxShadow: 'var(--shadow-lg)',
    maxWidth: 'min(32rem, 90vw)'
  },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': {
    backgroundColor: 'var(--accent-soft)',
    color: 'var(--accent-soft-text)'
  },
  '.cm-completionDetail': { color: 'var(--text-muted)', marginLeft: '0.75em' },
  '.cm-completionInfo': { padding: '0.4rem 0.6rem' },
  '.cm-diagnostic': { padding: '0.35rem 0.6rem', borderLeftWidth: '4px' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--danger)' },
  '.cm-diagnostic-warning': { borderLeftColor: 'var(--warning)' },
  '.cm-diagnostic-info': { borderLeftColor: 'var(--accent)' },
  '.cm-diagnosticAction': {
    backgroundColor: 'var(--accent)',
    color: 'var(--accent-text)',
    borderRadius: 'var(--radius-sm)',
    padding: '0.15rem 0.5rem'
  },
  '.cm-bf-message': { fontWeight: '500' },
  '.cm-bf-hint': { color: 'var(--text-muted)', marginTop: '0.15rem' },
  '.cm-bf-rule': { color: 'var(--text-faint)', fontSize: '0.8em', marginTop: '0.15rem' },
  '.cm-bf-rule a, .cm-bf-doc a': { color: 'var(--accent)' },
  '.cm-bf-doc': { padding: '0.45rem 0.65rem', maxWidth: '30rem', fontSize: '0.8125rem' },
  '.cm-bf-doc-title': { fontWeight: '600', fontFamily: 'var(--font-mono)' },
  '.cm-bf-doc-syntax': {
    fontFamily: 'var(--font-mono)',
    color: 'var(--text-muted)',
    margin: '0.2rem 0',
    fontSize: '0.75rem'
  },
  // Syntax colours: the console's accents, readable on both surfaces.
  '.cm-bf-keyword': { color: 'var(--accent)', fontWeight: '600' },
  '.cm-bf-flag': { color: 'var(--warning)' },
  '.cm-bf-value': { color: 'var(--success)' },
  '.cm-bf-image': { color: 'var(--success)', fontWeight: '500' },
  '.cm-bf-stage': { color: 'var(--danger)', fontWeight: '500' },
  '.cm-bf-key': { color: 'var(--warning)' },
  '.cm-bf-string': { color: 'var(--success)' },
  '.cm-bf-variable': { color: 'var(--danger)' },
  '.cm-bf-heredoc': { color: 'var(--accent)', fontStyle: 'italic' },
  '.cm-bf-body': { color: 'var(--text-muted)' },
  '.cm-bf-comment': { color: 'var(--text-faint)', fontStyle: 'italic' },
  '.cm-bf-directive': { color: 'var(--accent-soft-text)', fontStyle: 'italic' }
});
