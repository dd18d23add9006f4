import { describe, expect, it } from 'vitest';
import { highlightSegments } from './highlight';

describe('highlightSegments', () => {
  it('flags the <em> parts and keeps everything else as plain text', () => {
    expect(highlightSegments('<em>hic</em> et <em>nunc</em>!')).toEqual([
      { text: 'hic', marked: true },
      { text: ' et ', marked: false },
      { text: 'nunc', marked: true },
      { text: '!', marked: false },
    ]);
  });
  it('leaves any other markup as literal text (never HTML)', () => {
    expect(highlightSegments('<img src=x onerror=alert(1)><em>a</em>')).toEqual([
      { text: '<img src=x onerror=alert(1)>', marked: false },
      { text: 'a', marked: true },
    ]);
  });
});
