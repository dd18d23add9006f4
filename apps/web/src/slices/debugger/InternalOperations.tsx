/** The internal operations a debugged call emits; a contract call among them can be debugged in turn. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { DebugResult } from '@michelscope/api-types';
import type { DebugTarget } from './debug-target';

export function InternalOperations(props: {
  d: DebugResult;
  network: string;
  onDebug: (t: DebugTarget) => void;
}) {
  const { d } = props;
  if (d.operations.length === 0) return null;
  return (
    <Box component="section" aria-label="Internal operations" sx={{ mt: 2, overflowX: 'auto' }}>
      <Typography variant="overline" component="h3">
        Internal operations
      </Typography>
      <Table size="small" aria-label="Internal operations of the call">
        <TableHead>
          <TableRow>
            <TableCell>Kind</TableCell>
            <TableCell>Destination</TableCell>
            <TableCell>Entrypoint</TableCell>
            <TableCell align="right">Amount (mutez)</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {d.operations.map((o, i) => {
            const debuggable =
              o.kind === 'transaction' && o.destination?.startsWith('KT1') && o.parameter !== undefined;
            return (
              <TableRow key={i}>
                <TableCell>{o.kind}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{o.destination ?? ''}</TableCell>
                <TableCell>{o.kind === 'event' ? (o.tag ?? '') : (o.entrypoint ?? '')}</TableCell>
                <TableCell align="right">{o.amount ?? ''}</TableCell>
                <TableCell>
                  {debuggable ? (
                    <Button
                      size="small"
                      onClick={() =>
                        props.onDebug({
                          network: props.network,
                          address: o.destination!,
                          request: {
                            name: o.entrypoint ?? 'default',
                            value: o.parameter!,
                            sender: d.inputs.self,
                            ...(d.inputs.source ? { source: d.inputs.source } : {}),
                            ...(Number(o.amount) ? { amount: Number(o.amount) } : {}),
                          },
                        })
                      }
                    >
                      Debug
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Box>
  );
}
