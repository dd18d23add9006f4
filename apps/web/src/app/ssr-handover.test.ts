// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handOverServerPage } from './ssr-handover';

beforeAll(() => {
  if (!globalThis.requestAnimationFrame) {
    globalThis.requestAnimationFrame = (cb: FrameRequestCallback) =>
      setTimeout(() => cb(0), 0) as unknown as number;
  }
});

afterEach(() => {
  document.body.innerHTML = '';
});

/** Three operation cards, two of them alike, as the server and the app both render them. */
const cards = `
  <article><h3>default</h3><button aria-label="Show details">Show</button><a href="/x">KT1…</a></article>
  <article><h3>transfer</h3><button aria-label="Show details">Show</button><a href="/y">KT1…</a></article>
  <article><h3>transfer</h3><button>Copy</button></article>`;

/** The server's page, inert, its clickable elements laid out one under the other (jsdom has no layout). */
function serverPage() {
  const markup = document.createElement('div');
  markup.id = 'ms-ssr';
  markup.setAttribute('inert', '');
  markup.innerHTML = cards;
  markup.querySelectorAll('a, button').forEach((element, i) => {
    element.getBoundingClientRect = () =>
      ({ left: 0, right: 100, top: i * 40, bottom: i * 40 + 30, width: 100, height: 30 }) as DOMRect;
  });
  const root = document.createElement('div');
  root.id = 'root';
  document.body.append(markup, root);
  return { markup, root };
}

/** A click at a point of the server's page: being inert, the browser gives it to the body. */
function clickAt(y: number) {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, clientX: 50, clientY: y });
  document.body.dispatchEvent(event);
  return event;
}

/** The app commits its page and removes the server's (as useDropSsrMarkup does); the next frame passes. */
async function takeOver(markup: HTMLElement, root: HTMLElement, page = cards) {
  const clicked: string[] = [];
  root.innerHTML = page;
  root.querySelectorAll('a, button').forEach((element, i) =>
    element.addEventListener('click', (event) => {
      event.preventDefault();
      clicked.push(`${element.tagName} ${i}`);
    }),
  );
  markup.remove();
  // wait on the frame itself, not on a time: the removal's observer runs first (a task later at most) and
  // asks for a frame; a frame asked for after it runs after its callback (a 20 ms wait was missed under load)
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => requestAnimationFrame(resolve));
  return clicked;
}

describe("clicks on the server's page, replayed on the app's", () => {
  it('clicks the same button on the app’s page, not its namesake in another card', async () => {
    const { markup, root } = serverPage();
    handOverServerPage(markup, root);
    // the second card's 'Show details' (the third clickable element)
    expect(clickAt(95).defaultPrevented).toBe(true);
    expect(await takeOver(markup, root)).toEqual(['BUTTON 2']);
  });

  it('follows a link clicked there through the app, and nothing clicked after it', async () => {
    const { markup, root } = serverPage();
    handOverServerPage(markup, root);
    clickAt(135); // the second card's link
    clickAt(175); // 'Copy'
    expect(await takeOver(markup, root)).toEqual(['A 3']);
  });

  it('replays nothing when the app shows no twin, or for a click beside every element', async () => {
    const { markup, root } = serverPage();
    handOverServerPage(markup, root);
    expect(clickAt(500).defaultPrevented).toBe(false);
    clickAt(175); // 'Copy', which the app's page does not have
    expect(await takeOver(markup, root, cards.replace('<button>Copy</button>', ''))).toEqual([]);
  });

  it('replays a toggle clicked twice, twice; a page clicked on and on, not at all', async () => {
    let { markup, root } = serverPage();
    handOverServerPage(markup, root);
    clickAt(15);
    clickAt(15);
    expect(await takeOver(markup, root)).toEqual(['BUTTON 0', 'BUTTON 0']);

    document.body.innerHTML = '';
    ({ markup, root } = serverPage());
    handOverServerPage(markup, root);
    for (let i = 0; i < 6; i++) clickAt(15);
    expect(await takeOver(markup, root)).toEqual([]);
  });

  it("stops watching once the app's page is shown", async () => {
    const { markup, root } = serverPage();
    handOverServerPage(markup, root);
    const clicked = await takeOver(markup, root);
    expect(clickAt(15).defaultPrevented).toBe(false);
    expect(clicked).toEqual([]);
  });
});
