/**
 * Staged rendering of large raw JSON (discovery spec §9): a text over 10,000 characters is cut between its
 * top-level entries into steps of about 10,000 characters; the steps joined give exactly the full text.
 */
export const STEP_THRESHOLD = 10_000;

/** JSON.stringify with 2-space indentation; `undefined` and unserialisable values give an explanation. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? 'null';
  } catch {
    return '"(this value cannot be shown as JSON)"';
  }
}

function indent(text: string): string {
  return `  ${text.replace(/\n/g, '\n  ')}`;
}

export function jsonSteps(value: unknown, threshold = STEP_THRESHOLD): string[] {
  const full = prettyJson(value);
  if (full.length <= threshold || value === null || typeof value !== 'object') return [full];
  const entries = Array.isArray(value)
    ? value.map((item) => indent(prettyJson(item ?? null)))
    : Object.entries(value).map(([key, item]) => indent(`${JSON.stringify(key)}: ${prettyJson(item)}`));
  if (entries.length < 2) return [full];
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const steps: string[] = [];
  let current = `${open}\n`;
  entries.forEach((entry, i) => {
    current += entry + (i < entries.length - 1 ? ',\n' : `\n${close}`);
    if (current.length >= threshold && i < entries.length - 1) {
      steps.push(current);
      current = '';
    }
  });
  steps.push(current);
  return steps;
}
