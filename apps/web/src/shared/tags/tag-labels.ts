/** Contract tag labels (discovery spec §3): only these tags are shown; others are hidden. */
export const TAG_LABELS: Readonly<Record<string, string>> = {
  fa2: 'FA2',
  'fa1-2': 'FA1.2',
  fa1: 'FA1',
  delegator: 'Delegator',
  multisig: 'Multisig',
  sapling: 'Sapling',
  ledger: 'Ledger',
  CREATE_CONTRACT: 'Contract factory',
  SET_DELEGATE: 'Delegatable',
  upgradable: 'Upgradable',
};

/** At most this many tags show before the '+ N others' toggle. */
export const TAGS_SHOWN = 12;

/** The labels of the known tags, in the given order, without duplicates. */
export function tagLabels(tags: readonly string[]): string[] {
  const labels: string[] = [];
  for (const tag of tags) {
    const label = Object.hasOwn(TAG_LABELS, tag) ? TAG_LABELS[tag] : undefined;
    if (label !== undefined && !labels.includes(label)) labels.push(label);
  }
  return labels;
}
