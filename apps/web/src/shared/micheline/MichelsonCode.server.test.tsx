/**
 * The code view as the server renders it (issue 18; this file runs without a DOM, as the server's renderer
 * does): every line of a long script is in the page at once, not only its first tick of ~35,000 characters.
 */
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MichelsonCode } from './MichelsonCode';

describe('MichelsonCode rendered on the server', () => {
  it('draws every line of a long script, and is not busy', () => {
    const lines = Array.from({ length: 4_000 }, (_, i) => `       PUSH nat ${i} ; DROP ;`);
    const code = `parameter unit;\nstorage unit;\ncode { CDR ;\n${lines.join('\n')}\n       NIL operation ; PAIR }`;
    expect(code.length).toBeGreaterThan(3 * 35_000);
    const html = renderToString(<MichelsonCode code={code} label="Michelson code" />);
    expect(html).toContain('aria-busy="false"');
    expect(html).not.toContain('Rendering:');
    expect(html).toContain('PUSH nat 3999');
    expect(html.match(/data-n="/g)?.length).toBe(code.split('\n').length);
  });
});
