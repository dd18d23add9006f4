/**
 * Test helper: axe-core over the rendered document (jsdom). Colour contrast cannot be computed in jsdom
 * and is left to the browser checks; every other rule runs. Returns serious and critical violations.
 */
import axe from 'axe-core';

export async function seriousViolations(root: Element = document.body): Promise<string[]> {
  const result = await axe.run(root, {
    rules: { 'color-contrast': { enabled: false } },
    resultTypes: ['violations'],
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
