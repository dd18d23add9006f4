import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { WidgetProps } from '@rjsf/utils';
import { fetchResource } from '../../../api/resources';

/** What the schema form passes down to its widgets. */
export interface SchemaFormContext {
  network?: string | undefined;
  /** The level of the form's titles (its fields' names): one under the heading the form sits beneath. */
  headingLevel?: HeadingLevel;
}

export type HeadingLevel = 2 | 3 | 4 | 5 | 6;

/**
 * The newest contract implementing `tag` on `network` (GET /v1/helpers/contracts/{network}?tags=), or
 * null when there is none.
 */
export async function newestContractWithTag(network: string, tag: string): Promise<string | null> {
  try {
    const contract = await fetchResource('contractWithTag', { network, tags: tag });
    return typeof contract?.address === 'string' ? contract.address : null;
  } catch {
    return null;
  }
}

/**
 * Text inputs of schema forms. A `contract` field with a tag gets a 'fill' button that sets the address of
 * the newest contract with that tag (and does nothing when none exists); other fields render as usual.
 */
export function TextWidget(props: WidgetProps) {
  const { BaseInputTemplate } = props.registry.templates;
  const [busy, setBusy] = useState(false);
  const tag = (props.schema as { tag?: unknown }).tag;
  const network = (props.registry.formContext as SchemaFormContext | undefined)?.network;
  if ((props.schema as { prim?: unknown }).prim !== 'contract' || typeof tag !== 'string' || !network)
    return <BaseInputTemplate {...props} />;

  const fill = async () => {
    setBusy(true);
    const address = await newestContractWithTag(network, tag);
    setBusy(false);
    if (address) props.onChange(address);
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <BaseInputTemplate {...props} />
      </Box>
      <Button
        sx={{ mt: 1 }}
        disabled={busy || props.disabled || props.readonly}
        aria-label={`Fill ${props.label || props.id} with the newest ${tag} contract`}
        onClick={() => void fill()}
      >
        Fill
      </Button>
    </Box>
  );
}
