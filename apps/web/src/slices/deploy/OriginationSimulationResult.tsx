import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { mutezToTez, percentOf } from '../contract/interact/call-logic';
import { SimulatedAt } from '../contract/interact/SimulatedAt';
import type { OriginationSimulation } from './simulate-origination';

/**
 * The simulated origination: where it ran ('Simulated at level N', its block's time; a link's rerun at its level
 * says when the head moved on, with 'Rerun at head'), status, consumed gas, storage and burn, or the node's errors.
 */
export function OriginationSimulationResult({
  result,
  onRerunAtHead,
}: {
  result: OriginationSimulation;
  onRerunAtHead?: (() => void) | undefined;
}) {
  const int = (n: number) => n.toLocaleString('en-US');
  const pct = (part: number, limit: number) => {
    const p = percentOf(part, limit);
    return p === null ? '' : ` (${p}% of the limit)`;
  };
  const rows: [string, string][] = [
    ['Status', result.status],
    ['Consumed gas', `${int(result.consumedGas)}${pct(result.consumedGas, result.gasLimit)}`],
    ['Storage size', `${int(result.storageSize)} bytes`],
    [
      'Paid storage diff',
      `${int(result.paidStorageSizeDiff)} bytes${pct(result.paidStorageSizeDiff, result.storageLimit)}`,
    ],
    ['Burned', `${mutezToTez(result.burned)} ꜩ`],
  ];
  if (result.gasLimit > 0) rows.push(['Gas limit', int(result.gasLimit)]);
  if (result.storageLimit > 0) rows.push(['Storage limit', `${int(result.storageLimit)} bytes`]);
  if (result.time) rows.push(['Block time', result.time]);
  return (
    <Paper variant="outlined" component="section" aria-label="Simulation result" sx={{ p: 2 }}>
      <Typography variant="overline" component="h3">
        Simulation result
      </Typography>
      <SimulatedAt at={result.at} onRerunAtHead={onRerunAtHead} origination />
      <Table size="small">
        <TableBody>
          {rows.map(([k, v]) => (
            <TableRow key={k}>
              <TableCell component="th" scope="row">
                {k}
              </TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{v}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {result.errors.length > 0 ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {result.errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </Box>
        </Alert>
      ) : null}
    </Paper>
  );
}
