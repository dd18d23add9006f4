import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { SecurityEvidence, SecuritySummary } from '@michelscope/api-types';
import { securityQuery } from '../../../api/contract-api';
import { AddressEntity } from '../../../shared/entities/AddressEntity';
import { formatNumber } from '../../../shared/format/format';
import { ContractFrame } from '../ContractFrame';
import type { ContractPageData } from '../useContractPage';
import {
  capabilityLabel,
  evidenceHref,
  fieldRef,
  isConstantHash,
  linkableAddress,
  whoText,
  type SecurityEntrypoint,
} from './security-text';

interface At {
  network: string;
  address: string;
}

/** An evidence item: its instruction, linked to its line in the Code tab when the line is known. */
function Evidence({ at, evidence }: { at: At; evidence: SecurityEvidence }) {
  const href = evidenceHref(at.network, at.address, evidence);
  const code = (
    <Box component="code" sx={{ fontFamily: 'monospace', fontSize: 12, overflowWrap: 'anywhere' }}>
      {evidence.instruction}
    </Box>
  );
  return href ? (
    <Link component={RouterLink} to={href} underline="hover" title={evidence.path}>
      line {evidence.line} {code}
    </Link>
  ) : (
    <Box component="span" title={evidence.path}>
      {code} (line not known)
    </Box>
  );
}

function EvidenceList({ at, items }: { at: At; items: readonly SecurityEvidence[] }) {
  if (items.length === 0) return null;
  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', flexWrap: 'wrap', columnGap: 1.5, rowGap: 0.25, fontSize: 13 }}
    >
      <Box component="span" sx={{ color: 'text.secondary' }}>
        Evidence:
      </Box>
      {items.map((e, i) => (
        <Evidence key={`${e.path}-${i}`} at={at} evidence={e} />
      ))}
    </Box>
  );
}

/** Who may call an entrypoint; an admin's address links to its account page. */
function Who({ at, entrypoint }: { at: At; entrypoint: SecurityEntrypoint }) {
  const a = entrypoint.admin;
  if (entrypoint.who === 'admin' && a) {
    const by = a.source ? ' (checked against SOURCE)' : '';
    if (a.hardcoded && a.hardcoded.length > 0) {
      return (
        <>
          addresses written in the code:{' '}
          {a.hardcoded.map((h, i) => (
            <Box component="span" key={`${h}-${i}`}>
              {i > 0 ? ', ' : null}
              <AddressEntity network={at.network} address={h} />
            </Box>
          ))}
          {by}
        </>
      );
    }
    if (a.set) return <>{whoText(entrypoint)}</>;
    const address = linkableAddress(a.address);
    return (
      <>
        admin at <code>{fieldRef(a.field)}</code>
        {address ? (
          <>
            {' ('}
            <AddressEntity network={at.network} address={address} />)
          </>
        ) : a.address ? (
          ` (${a.address})`
        ) : null}
        {by}
      </>
    );
  }
  return <>{whoText(entrypoint)}</>;
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby={id}>
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function Findings({ at, summary }: { at: At; summary: SecuritySummary }) {
  return (
    <Section id="security-findings-title" title="Findings">
      {summary.findings.length === 0 ? (
        <Typography color="text.secondary">Nothing to report</Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 2.5, '& > li + li': { mt: 1 } }}>
          {summary.findings.map((f, i) => (
            <li key={`${f.kind}-${i}`}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {f.sentence}
              </Typography>
              <EvidenceList at={at} items={f.evidence} />
            </li>
          ))}
        </Box>
      )}
    </Section>
  );
}

/**
 * What an entrypoint changes that matters to its users besides its effects: the code kept in storage (a lambda
 * it writes) and a privileged field (an admin it replaces). An `upgrade` that swaps the contract's logic is
 * not 'no effects'.
 */
function changesOf(summary: SecuritySummary, entrypoint: string): string[] {
  const out: string[] = [];
  for (const l of summary.upgrade.stored_lambdas)
    if (l.written_by.includes(entrypoint)) out.push(`replaces the code at ${fieldRef(l.field)}`);
  for (const r of summary.upgrade.admin_replaceable)
    if (r.entrypoint === entrypoint) out.push(`replaces ${fieldRef(r.field)}`);
  return [...new Set(out)];
}

function Entrypoints({ at, summary }: { at: At; summary: SecuritySummary }) {
  return (
    <Section id="security-entrypoints-title" title="Entrypoints">
      {summary.entrypoints.length === 0 ? (
        <Typography color="text.secondary">No entrypoints</Typography>
      ) : (
        <Box
          sx={{ overflowX: 'auto' }}
          role="region"
          aria-label="Entrypoints table"
          // scrolled by keyboard at 375 px
          tabIndex={0}
        >
          <Table size="small" aria-labelledby="security-entrypoints-title" sx={{ minWidth: 560 }}>
            <TableHead>
              <TableRow>
                <TableCell>Entrypoint</TableCell>
                <TableCell>Who may call</TableCell>
                <TableCell>What it can do</TableCell>
                <TableCell>Evidence</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {summary.entrypoints.map((e, i) => (
                <TableRow key={`${e.name}-${i}`} data-entrypoint={e.name}>
                  <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{e.name}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    <Who at={at} entrypoint={e} />
                  </TableCell>
                  <TableCell>
                    {(() => {
                      const labels = [...e.can.map(capabilityLabel), ...changesOf(summary, e.name)];
                      return labels.length === 0 ? (
                        <Typography variant="body2" color="text.secondary">
                          no effects
                        </Typography>
                      ) : (
                        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                          {labels.map((c) => (
                            <Chip key={c} size="small" label={c} />
                          ))}
                        </Box>
                      );
                    })()}
                  </TableCell>
                  <TableCell>
                    {e.evidence.length === 0 ? (
                      '—'
                    ) : (
                      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.25, fontSize: 13 }}>
                        {e.evidence.map((ev, j) => (
                          <Evidence key={`${ev.path}-${j}`} at={at} evidence={ev} />
                        ))}
                      </Box>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Section>
  );
}

const WHO_WORD: Record<string, string> = {
  anyone: 'anyone',
  admin: 'an admin',
  multisig: 'a multisig',
  nobody: 'nobody',
  unknown: 'a caller not known',
};

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '200px 1fr' }, gap: { xs: 0, sm: 2 } }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {term}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

function Upgradeability({ at, summary }: { at: At; summary: SecuritySummary }) {
  const u = summary.upgrade;
  return (
    <Section id="security-upgrade-title" title="Upgradeability">
      <Stack component="dl" spacing={1.5} sx={{ m: 0 }}>
        <Fact term="Code can change">
          {summary.upgradable === null ? 'not known' : summary.upgradable ? 'yes' : 'no'}
        </Fact>
        <Fact term="Stored lambdas">
          {u.stored_lambdas.length === 0
            ? 'none executed'
            : u.stored_lambdas.map((l, i) => (
                <Box key={`${l.field}-${i}`} sx={{ mb: 0.5 }}>
                  <code>{fieldRef(l.field)}</code>, written by{' '}
                  {l.written_by.length === 0 ? 'no entrypoint' : l.written_by.join(', ')}
                  <Box>
                    <EvidenceList at={at} items={l.evidence} />
                  </Box>
                </Box>
              ))}
        </Fact>
        <Fact term="Global constants">
          {u.global_constants.length === 0
            ? 'none'
            : u.global_constants.map((g, i) => (
                <Box key={`${g}-${i}`} sx={{ fontFamily: 'monospace', fontSize: 13 }}>
                  {isConstantHash(g) ? (
                    <Link component={RouterLink} to={`/constant/${at.network}/${g}`} underline="hover">
                      {g}
                    </Link>
                  ) : (
                    g
                  )}
                </Box>
              ))}
        </Fact>
        <Fact term="SET_DELEGATE">{u.set_delegate ? 'reachable' : 'not reachable'}</Fact>
        <Fact term="Replaceable admin fields">
          {u.admin_replaceable.length === 0
            ? 'none'
            : u.admin_replaceable.map((r, i) => (
                <Box key={`${r.field}-${r.entrypoint}-${i}`}>
                  <code>{fieldRef(r.field)}</code> through <code>{r.entrypoint}</code>, callable by{' '}
                  {WHO_WORD[r.who] ?? r.who}
                </Box>
              ))}
        </Fact>
        <Fact term="Code migrations">
          {u.code_migrations.length === 0
            ? 'none'
            : u.code_migrations.map((m, i) => (
                <Box key={`${m.level}-${i}`}>
                  level {formatNumber(m.level)} (to{' '}
                  <Box component="span" title={m.protocol} sx={{ fontFamily: 'monospace' }}>
                    {m.protocol.slice(0, 8)}
                  </Box>
                  )
                </Box>
              ))}
        </Fact>
      </Stack>
    </Section>
  );
}

/** The Security tab (issue 37, part 2): the findings, who may call each entrypoint, and upgradeability. */
export function SecurityTab({ data }: { data: ContractPageData }) {
  const { network, address } = data;
  const summary = useQuery(securityQuery(network, address));
  const at = { network, address };
  if (summary.isPending) return <LinearProgress aria-label="Loading the security summary" />;
  if (summary.isError)
    return (
      <Typography color="text.secondary" role="status">
        Security summary unavailable
      </Typography>
    );
  const s = summary.data;
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        A static analysis of the contract’s Michelson and current storage: who may call each entrypoint, what
        it can do, and whether its code can change. Each finding links to its instructions in the Code tab.
      </Typography>
      {s.complete ? null : (
        <Alert severity="warning" role="status">
          The analysis stopped at its bounds ({formatNumber(s.steps)} instructions interpreted) or could not
          follow some code: some parts are unknown.
        </Alert>
      )}
      <Findings at={at} summary={s} />
      <Entrypoints at={at} summary={s} />
      <Upgradeability at={at} summary={s} />
    </Stack>
  );
}

/** /{network}/{address}/security */
export function SecurityPage() {
  return <ContractFrame tab="security">{(data) => <SecurityTab data={data} />}</ContractFrame>;
}
