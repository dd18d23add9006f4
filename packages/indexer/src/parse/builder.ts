/**
 * Accumulates the rows of one block while its operations are parsed: account counters, contracts
 * originated earlier in the same block, constants registered in it, tickets, big-map rows.
 */
import { tagsFromMask, ticketHash, type Micheline } from '@michelscope/michelson';
import { emptyBlockData, type AccountDelta, type BlockData, type OperationRow } from '@michelscope/db/write';
import type { EraHandler } from './era';
import { accountKind, address, arr, bigStr, micheline, obj, type Obj } from './read';
import type { ContractInfo } from './scripts';

export interface ParseContext {
  level: number;
  timestamp: Date;
  /** Mutez burned per byte of storage (protocol constant). */
  costPerByte: number;
  era: EraHandler;
  /** A contract stored before this block (the indexer prefetches the ones the block references). */
  contract(address: string): ContractInfo | undefined;
  /** A global constant registered before this block. */
  constant(address: string): Micheline | undefined;
  /** Scripts of contracts originated by implicit operations (read from the node at this level). */
  implicitScript?(address: string): { code: unknown; storage: unknown } | undefined;
}

type Counter = 'operations_count' | 'events_count' | 'migrations_count' | 'ticket_updates_count';

export class BlockBuilder {
  readonly data: BlockData = emptyBlockData();
  private readonly accounts = new Map<string, AccountDelta>();
  private readonly contracts = new Map<string, ContractInfo>();
  private readonly constants = new Map<string, Micheline>();
  private readonly tickets = new Set<string>();
  private readonly scripts = new Set<string>();

  constructor(readonly ctx: ParseContext) {}

  contract(addr: string): ContractInfo | undefined {
    return this.contracts.get(addr) ?? this.ctx.contract(addr);
  }

  addContract(addr: string, info: ContractInfo): void {
    this.contracts.set(addr, info);
  }

  constant(addr: string): Micheline | undefined {
    return this.constants.get(addr) ?? this.ctx.constant(addr);
  }

  addConstant(addr: string, value: Micheline, op: number): void {
    if (this.constants.has(addr)) return;
    this.constants.set(addr, value);
    this.data.globalConstants.push({ op, address: addr, value });
    this.data.searchDocuments.push({ kind: 'global_constant', key: addr, title: addr, body: '' });
  }

  addScript(row: BlockData['scripts'][number]): void {
    if (this.scripts.has(row.hash)) return;
    this.scripts.add(row.hash);
    this.data.scripts.push(row);
  }

  /** Adds one to a counter of an account (created with the type its address implies). */
  touch(addr: string | null, counter?: Counter): void {
    if (!addr) return;
    let a = this.accounts.get(addr);
    if (!a) {
      const kind = accountKind(addr);
      const type = kind === 'contract' && !this.contract(addr) ? 'ghost' : kind;
      a = {
        address: addr,
        type,
        operations_count: 0,
        events_count: 0,
        migrations_count: 0,
        ticket_updates_count: 0,
      };
      this.accounts.set(addr, a);
      this.data.accounts.push(a);
    } else if (a.type === 'ghost' && this.contracts.has(addr)) {
      a.type = 'contract';
    }
    if (counter) a[counter] += 1;
  }

  addOperation(row: OperationRow): number {
    this.data.operations.push(row);
    return this.data.operations.length - 1;
  }

  /** `ticket_updates` / `ticket_receipt` of an applied result: tickets, updates and account counters. */
  ticketUpdates(raw: unknown, op: number, where: string): number {
    let n = 0;
    arr(raw, where).forEach((item, i) => {
      const w = `${where}[${i}]`;
      const t = obj(obj(item, w).ticket_token, `${w} ticket_token`);
      const ticketer = address(t, 'ticketer', `${w} ticket_token`);
      const contentType = micheline(t.content_type, `${w} content_type`);
      const content = micheline(t.content, `${w} content`);
      const hash = ticketHash(contentType, content, ticketer);
      if (!this.tickets.has(hash)) {
        this.tickets.add(hash);
        this.data.tickets.push({ hash, ticketer, content_type: contentType, content });
      }
      arr((item as Obj).updates, `${w} updates`).forEach((u, j) => {
        const uo = obj(u, `${w} updates[${j}]`);
        const account = address(uo, 'account', `${w} updates[${j}]`);
        this.data.ticketUpdates.push({
          op,
          ticket_hash: hash,
          account,
          amount: bigStr(uo, 'amount', `${w} updates[${j}]`),
        });
        this.touch(account, 'ticket_updates_count');
        // the ticketer takes part too: its count is the updates of the tickets it issued that others hold
        if (ticketer !== account) this.touch(ticketer, 'ticket_updates_count');
        n++;
      });
    });
    return n;
  }

  contractSearchDocument(addr: string, row: BlockData['scripts'][number], tags: number): void {
    this.data.searchDocuments.push({
      kind: 'contract',
      key: addr,
      title: addr,
      body: contractSearchBody(row, tags),
    });
  }
}

/** The searchable words of a contract: its script's entrypoints, annotations and fail strings, its tags. */
export function contractSearchBody(row: BlockData['scripts'][number], tags: number): string {
  const words = [
    ...row.entrypoints,
    ...row.annotations.map((a) => a.replace(/^[%:@]/, '')),
    ...row.fail_strings,
    ...tagsFromMask(tags),
  ];
  return [...new Set(words)].join(' ').slice(0, 20_000);
}
