/**
 * Clicks on the server's page before the app takes it over (issue 18). That page is shown at once but is
 * inert until the app replaces it (its links and buttons would otherwise look usable and do nothing, or load
 * the whole page again): a click there reaches the document's body. Such a click is found back on the
 * server's page by its position, and once the app shows its own page, the twin of the element clicked is
 * clicked: a reader who opens 'Show details' or a tab while the app starts does not have to do it again.
 *
 * An element's twin is the element of the app's page with the same tag, role and accessible name, at the
 * same position among the elements alike. The server renders the same components, so they match; when the
 * app's page has no twin (it differs), nothing is replayed.
 */

/** What a click is replayed on: links (the app's router follows them) and buttons. */
const CLICKABLE =
  'a[href], button, [role="button"], [role="tab"], [role="switch"], [role="checkbox"], summary';
/** More clicks than this are not replayed: a reader who kept clicking a page that did not answer gave up. */
const MAX_CLICKS = 3;
/** Clicks older than this when the app takes over are dropped (the reader has moved on). */
const MAX_AGE_MS = 5_000;

interface Identity {
  kind: string;
  name: string;
  index: number;
}

const kindOf = (element: Element) => `${element.tagName}|${element.getAttribute('role') ?? ''}`;

const nameOf = (element: Element) =>
  (element.getAttribute('aria-label') ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();

const alike = (within: ParentNode, kind: string, name: string) =>
  [...within.querySelectorAll<HTMLElement>(CLICKABLE)].filter(
    (e) => kindOf(e) === kind && nameOf(e) === name,
  );

function identify(element: Element, within: ParentNode): Identity {
  const kind = kindOf(element);
  const name = nameOf(element);
  return { kind, name, index: alike(within, kind, name).indexOf(element as HTMLElement) };
}

/** The element of `within` that `identity` names, if any. */
function twin(identity: Identity, within: ParentNode): HTMLElement | null {
  return identity.index < 0 ? null : (alike(within, identity.kind, identity.name)[identity.index] ?? null);
}

/** The innermost clickable element of `markup` under the point (the page is inert: the browser says body). */
function clickedAt(markup: HTMLElement, x: number, y: number): Element | null {
  let hit: Element | null = null;
  for (const element of markup.querySelectorAll(CLICKABLE)) {
    const r = element.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) {
      if (!hit || hit.contains(element)) hit = element;
    }
  }
  return hit;
}

/**
 * Watches clicks on the server's page `markup` until it leaves the document, then clicks their twins on
 * `root` (the app's page). Returns a function that stops watching.
 */
export function handOverServerPage(markup: HTMLElement, root: HTMLElement): () => void {
  const clicks: { identity: Identity; at: number }[] = [];

  const onClick = (event: MouseEvent) => {
    if (!markup.isConnected || root.contains(event.target as Node)) return;
    const element = clickedAt(markup, event.clientX, event.clientY);
    if (!element) return;
    event.preventDefault();
    if (clicks.length <= MAX_CLICKS) clicks.push({ identity: identify(element, markup), at: Date.now() });
  };
  document.addEventListener('click', onClick, true);

  const observer = new MutationObserver(() => {
    if (markup.isConnected) return;
    stop();
    if (clicks.length === 0 || clicks.length > MAX_CLICKS) return;
    // one frame later: the app's page is committed and its handlers attached
    requestAnimationFrame(() => {
      const now = Date.now();
      for (const click of clicks) {
        const element = now - click.at <= MAX_AGE_MS ? twin(click.identity, root) : null;
        element?.click();
        // a link leaves the page: what was clicked after it was on this page, not on the next
        if (element instanceof HTMLAnchorElement) break;
      }
    });
  });
  if (markup.parentNode) observer.observe(markup.parentNode, { childList: true });

  function stop() {
    observer.disconnect();
    document.removeEventListener('click', onClick, true);
  }
  return stop;
}
