/**
 * jsdom has no layout: every element gets an 800 x 600 box (and client size), so that a virtualised list or
 * tree sees a viewport and renders its first rows. `scrollTo` moves `scrollTop` and fires `scroll`, as a
 * browser does. Call it in a `beforeEach`; `vi.restoreAllMocks()` undoes the spies.
 */
import { vi } from 'vitest';

export function stubLayoutBox(): void {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
    x: 0,
    y: 0,
    top: 0,
    left: 0,
    bottom: 600,
    right: 800,
    width: 800,
    height: 600,
    toJSON: () => ({}),
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
  Element.prototype.scrollTo = function scrollTo(this: Element, options?: ScrollToOptions | number) {
    if (typeof options === 'object' && options.top !== undefined) {
      Object.defineProperty(this, 'scrollTop', { value: options.top, configurable: true, writable: true });
    }
    this.dispatchEvent(new Event('scroll'));
  };
}
