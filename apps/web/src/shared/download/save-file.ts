/** Saves a Blob as a file (a temporary object URL on a download link, revoked once the download has started). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves a text as a file. */
export function downloadText(fileName: string, text: string, type = 'text/plain'): void {
  saveBlob(new Blob([text], { type }), fileName);
}
