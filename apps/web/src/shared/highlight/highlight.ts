/**
 * Search highlights arrive as text with `<em>` marks. They are never injected as HTML: the fragment is
 * cut into plain-text segments, the `<em>…</em>` parts flagged as marked.
 */
export interface Segment {
  text: string;
  marked: boolean;
}

export function highlightSegments(fragment: string): Segment[] {
  const segments: Segment[] = [];
  let marked = false;
  for (const part of fragment.split(/(<\/?em>)/i)) {
    const tag = part.toLowerCase();
    if (tag === '<em>') marked = true;
    else if (tag === '</em>') marked = false;
    else if (part !== '') segments.push({ text: part, marked });
  }
  return segments;
}
