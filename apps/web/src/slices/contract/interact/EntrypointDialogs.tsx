/**
 * The dialogs of an entrypoint's actions: its call's parameters as raw JSON, as Michelson and as an
 * octez-client command line, and the results of a simulation and of a what-if run.
 */
import type { StateLevel, WhatIfRequest, WhatIfResult } from '@michelscope/api-types';
import { formatMichelson, type Micheline } from '@michelscope/michelson';
import type { Operation } from '../../../api/opg-types';
import { RawJsonDialog } from '../../../shared/json/RawJsonDialog';
import type { DebugTarget } from '../../debugger/debug-target';
import { commandLine } from './call-logic';
import { CommandLineDialog, TextDialog } from './InteractDialogs';
import { SimulationDialog } from './SimulationDialog';
import { WhatIfDialog } from './WhatIfDialog';
import type { DebugPosition } from './share-link';

/** The dialog open over the panel, if any. */
export type EntrypointDialog = 'json' | 'michelson' | 'cli' | 'simulation' | 'whatif' | null;
/** A call's parameters: the entrypoint and its value. */
export type CallParams = { entrypoint: string; value: Micheline };

export function EntrypointDialogs(props: {
  dialog: EntrypointDialog;
  onClose: () => void;
  network: string;
  address: string;
  /** the parameters of the form's call, as last built */
  params: CallParams | null;
  /** the command line's source: the one given or the wallet's */
  cliSource: string;
  /** mutez */
  amount: number;
  /** the node's simulation, its debug target and the level it read the chain at */
  simulation: Operation[];
  code: Micheline | undefined;
  simulated: DebugTarget | undefined;
  simulatedAt: StateLevel | undefined;
  whatIfRun: { request: WhatIfRequest; result: WhatIfResult } | null;
  copyLink: (debug?: DebugPosition) => Promise<string>;
  debugAt: DebugPosition | undefined;
  /** a pinned result's rerun at the head */
  onRerunAtHead: () => void;
}) {
  const { dialog, onClose, params } = props;
  return (
    <>
      <RawJsonDialog
        open={dialog === 'json'}
        onClose={onClose}
        title="Raw JSON"
        value={params ?? undefined}
      />
      <TextDialog
        open={dialog === 'michelson'}
        title="Michelson"
        text={params ? formatMichelson(params.value) : ''}
        onClose={onClose}
      />
      <CommandLineDialog
        open={dialog === 'cli'}
        onClose={onClose}
        build={(burnCap, dryRun) =>
          params
            ? commandLine({
                address: props.address,
                source: props.cliSource,
                amountMutez: props.amount,
                entrypoint: params.entrypoint,
                value: params.value,
                burnCap,
                dryRun,
              })
            : ''
        }
      />
      <SimulationDialog
        open={dialog === 'simulation'}
        onClose={onClose}
        ops={props.simulation}
        network={props.network}
        code={props.code}
        debug={props.simulated}
        copyLink={props.copyLink}
        debugAt={props.debugAt}
        at={props.simulatedAt}
        onRerunAtHead={props.onRerunAtHead}
      />
      <WhatIfDialog
        open={dialog === 'whatif'}
        onClose={onClose}
        network={props.network}
        address={props.address}
        request={props.whatIfRun?.request ?? null}
        result={props.whatIfRun?.result ?? null}
        copyLink={props.copyLink}
        debugAt={props.debugAt}
        onRerunAtHead={props.onRerunAtHead}
      />
    </>
  );
}
