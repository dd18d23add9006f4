import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { StateLevel } from '@michelscope/api-types';
import { formatNumber } from '../../../shared/format/format';

/**
 * The level a simulation's state was read at ("Simulated at level N"), and, when the head has moved past it (a
 * shared link pinned to its level), what that means with a way to run it again at the head. `origination`: a
 * script not deployed yet (the deploy page), which has no state of its own: only the block's level and time.
 */
export function SimulatedAt(props: {
  at: StateLevel | undefined;
  onRerunAtHead?: (() => void) | undefined;
  origination?: boolean;
}) {
  const { at } = props;
  if (!at) return null;
  const moved = at.head_level > at.level;
  return (
    <>
      <Typography variant="body2" sx={{ mb: 1 }} aria-label="Simulated at">
        Simulated at level {formatNumber(at.level)}
      </Typography>
      {moved ? (
        <Alert severity={at.changed_since ? 'warning' : 'info'} sx={{ mb: 1 }} aria-label="Head moved">
          {props.origination
            ? `The head has moved to level ${formatNumber(at.head_level)}. This result is the run at level ${formatNumber(at.level)} (its level and time), as the link was made.`
            : `${
                at.changed_since
                  ? `The contract has changed since: head is at level ${formatNumber(at.head_level)}.`
                  : `The head has moved to level ${formatNumber(at.head_level)}; the contract has not changed since.`
              } This result is its state at level ${formatNumber(at.level)}, as the link was made.`}
          {/* under the text, not beside it: a phone's width keeps the label on one line */}
          {props.onRerunAtHead ? (
            <Button
              color="inherit"
              size="small"
              variant="outlined"
              onClick={props.onRerunAtHead}
              sx={{ display: 'flex', mt: 1 }}
            >
              Rerun at head
            </Button>
          ) : null}
        </Alert>
      ) : null}
    </>
  );
}
