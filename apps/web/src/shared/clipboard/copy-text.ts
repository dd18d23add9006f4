/** Clipboard writes with the spec's messages (discovery spec §8). */

export const COPY_OK = 'Copied to the clipboard!';
export const COPY_TRUNCATED = 'Copied! Text might be truncated due to its size!';
export const COPY_FAILED = 'Failed to save to the clipboard!';
/** Above this many characters some clipboards cut the text: the visitor is warned. */
export const COPY_WARN_LENGTH = 100_000;

export type CopyOutcome = { severity: 'success' | 'warning' | 'error'; message: string };

export async function copyText(
  text: string,
  clipboard: Pick<Clipboard, 'writeText'> | undefined = globalThis.navigator?.clipboard,
): Promise<CopyOutcome> {
  if (!clipboard) return { severity: 'error', message: COPY_FAILED };
  try {
    await clipboard.writeText(text);
  } catch {
    return { severity: 'error', message: COPY_FAILED };
  }
  return text.length > COPY_WARN_LENGTH
    ? { severity: 'warning', message: COPY_TRUNCATED }
    : { severity: 'success', message: COPY_OK };
}
