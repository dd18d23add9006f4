/**
 * The colours of Michelson's token classes (./michelson-mode's names), dark and light; one table for the
 * light view (./MichelsonCode) and the CodeMirror editor (./MichelsonViewer), so both look the same. Each
 * colour has a contrast of 4.5:1 or more (WCAG AA) on the paper of its theme (#1e2128 dark, white light).
 */
export interface TokenStyle {
  color: string;
  fontWeight?: 'bold';
  fontStyle?: 'italic';
}

export function michelsonPalette(dark: boolean): Record<string, TokenStyle> {
  return {
    atom: { color: dark ? '#cc7832' : '#7a3e9d' },
    keyword: { color: dark ? '#ffc66d' : '#1d4ed8', fontWeight: 'bold' },
    typeName: { color: dark ? '#ab8bbf' : '#b45309' },
    variableName: { color: dark ? '#6897bb' : '#0f766e' },
    macroName: { color: dark ? '#e8bf6a' : '#be185d' },
    string: { color: dark ? '#7a9a68' : '#15803d' },
    number: { color: dark ? '#7a9a68' : '#15803d' },
    comment: { color: dark ? '#909090' : '#6b7280', fontStyle: 'italic' },
  };
}

/** The editor's look (CodeMirror's base theme with ours on top), shared by both views. */
export const CODE_FONT = '"Roboto Mono", monospace';
export const CODE_FONT_SIZE = 13;
export const CODE_LINE_HEIGHT = 1.4;
export const GUTTER_COLOR = 'rgba(128,128,128,.5)';
export const FAILED_BACKGROUND = 'rgba(244,67,54,.35)';

/** The widest line number CodeMirror sizes its gutter for: 9, 99, 999… at least `lines`. */
export function maxLineNumber(lines: number): number {
  let last = 9;
  while (last < lines) last = last * 10 + 9;
  return last;
}
