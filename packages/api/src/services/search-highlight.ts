/** Search highlights: fragments of a matched text with the query's words marked, the rest escaped as HTML. */

/** Fragments of `text` around the query words, each word wrapped in `<em>` (other markup escaped). */
export function highlights(text: string, query: string, max = 3): string[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .slice(0, 8);
  const out: string[] = [];
  const lower = text.toLowerCase();
  for (const w of words) {
    const at = lower.indexOf(w);
    if (at < 0) continue;
    const start = Math.max(0, at - 40);
    const end = Math.min(text.length, at + w.length + 40);
    out.push(
      escapeHtml(text.slice(start, at)) +
        '<em>' +
        escapeHtml(text.slice(at, at + w.length)) +
        '</em>' +
        escapeHtml(text.slice(at + w.length, end)),
    );
    if (out.length >= max) break;
  }
  return out.length ? out : [escapeHtml(text.slice(0, 80))];
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
