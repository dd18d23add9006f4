import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { mutezToTez } from '../contract/interact/call-logic';
import type { OriginationSimulation } from './simulate-origination';

/** The simulated origination: status, consumed gas, storage and burn, or the node's errors. */
export function OriginationSimulationResult({ result }: { result: OriginationSimulation }) {
  const rows: [string, string][] = [
    ['Status', result.status],
    ['Consumed gas', result.consumedGas.toLocaleString('en-US')],
    ['Storage size', `${result.storageSize.toLocaleString('en-US')} bytes`],
    ['Paid storage diff', `${result.paidStorageSizeDiff.toLocaleString('en-US')} bytes`],
    ['Burned', `${mutezToTez(result.burned)} ꜩ`],
  ];
  return (
    <Paper variant="outlined" component="section" aria-label="Simulation result" sx={{ p: 2 }}>
      <Typography variant="overline" component="h3">
        Simulation result
      </Typography>
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
