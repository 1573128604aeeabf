/** The keyboard shortcuts the help panel lists: the keymaps setup.ts installs, by what they do. */

export interface Shortcut {
  keys: string;
  action: string;
}

export const SHORTCUTS: { group: string; items: Shortcut[] }[] = [
  {
    group: 'Build file',
    items: [
      { keys: 'Shift+Alt+F', action: 'Format: upper-case keywords, one space after them' },
      { keys: 'Ctrl+Space', action: 'Complete (instructions, flags, values, stages, variables)' },
      { keys: 'Ctrl+.', action: 'Quick fix: apply the fix of the diagnostic at the cursor' },
      { keys: 'Ctrl+Shift+M', action: 'Open the list of diagnostics' },
      { keys: 'F8', action: 'Next diagnostic' },
      { keys: 'Ctrl+S', action: 'Save' },
      { keys: 'F1, ?', action: 'This help (? outside the text)' }
    ]
  },
  {
    group: 'Search',
    items: [
      { keys: 'Ctrl+F', action: 'Find and replace' },
      { keys: 'F3 / Ctrl+G', action: 'Next match' },
      { keys: 'Shift+F3 / Ctrl+Shift+G', action: 'Previous match' },
      { keys: 'Ctrl+D', action: 'Select the next occurrence' },
      { keys: 'Ctrl+Alt+G', action: 'Go to line' },
      { keys: 'Escape', action: 'Close the search panel' }
    ]
  },
  {
    group: 'Editing',
    items: [
      { keys: 'Ctrl+Z / Ctrl+Shift+Z', action: 'Undo / redo' },
      { keys: 'Ctrl+/', action: 'Comment or uncomment lines' },
      { keys: 'Alt+↑ / Alt+↓', action: 'Move lines up or down' },
      { keys: 'Shift+Alt+↑ / ↓', action: 'Copy lines up or down' },
      { keys: 'Ctrl+Shift+K', action: 'Delete line' },
      { keys: 'Ctrl+] / Ctrl+[', action: 'Indent / outdent' },
      { keys: 'Tab / Shift+Tab', action: 'Indent / outdent' },
      { keys: 'Ctrl+M', action: 'Tab moves the focus instead (on and off)' },
      { keys: 'Ctrl+A', action: 'Select all' }
    ]
  }
];
