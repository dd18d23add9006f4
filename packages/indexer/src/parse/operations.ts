/**
 * Operation groups -> operation rows (every manager kind, their internal operations and events), with
 * contracts, big maps, tickets, constants, rollups and migrations they produce. Burned/gas rules: §6.10.
 */
import { resolveEntrypoint, TAG_BITS, type Micheline } from '@michelscope/michelson';
import type { OperationRow } from '@michelscope/db/write';
import { InvalidNodeDataError } from '../protocols/validate';
import { applyBigMapEvents, originatedStorage, type TempBigMaps } from './big-maps';
import type { BlockBuilder } from './builder';
import {
  address,
  arr,
  bigStr,
  isObj,
  micheline,
  num,
  obj,
  optAddress,
  optMicheline,
  optStr,
  status,
  str,
  type Obj,
} from './read';
import { buildScript } from './scripts';

const bit = (name: (typeof TAG_BITS)[number]) => 1 << TAG_BITS.indexOf(name);
/** Contract tags copied onto operations (§6.11). */
export const OPERATION_TAGS = bit('fa1-2') | bit('fa2') | bit('ledger');
export const IMPLICIT_OPERATION_TAG = bit('implicit_operation');

interface Common {
  hash: string | null;
  counter: number | null;
  contentIndex: number;
  initiator: string | null;
  temps: TempBigMaps;
}

const ALLOCATION_BYTES = 257;

function baseRow(kind: string, c: Obj, common: Common, internal: boolean, where: string): OperationRow {
  return {
    hash: common.hash,
    counter: common.counter,
    content_index: common.contentIndex,
    nonce: internal ? num(c, 'nonce', where) : null,
    internal,
    kind,
    status: 'applied',
    source: optAddress(c, 'source', where),
    destination: null,
    initiator: internal ? common.initiator : null,
    delegate: null,
    fee: internal ? 0 : num(c, 'fee', where),
    gas_limit: internal ? 0 : num(c, 'gas_limit', where),
    storage_limit: internal ? 0 : num(c, 'storage_limit', where),
    amount: '0',
    consumed_gas: 0,
    storage_size: 0,
    paid_storage_size_diff: 0,
    burned: 0,
    allocated_destination_contract_burned: 0,
    allocated_destination_contract: false,
    entrypoint: null,
    tag: null,
    tags: 0,
    parameters: null,
    storage: null,
    payload: null,
    payload_type: null,
    errors: null,
    big_map_diffs_count: 0,
    ticket_updates_count: 0,
  };
}

/** Parses one content (or internal operation) and its result into `b`. */
function parseOne(
  b: BlockBuilder,
  kind: string,
  c: Obj,
  result: Obj,
  common: Common,
  internal: boolean,
  where: string,
): void {
  const row = baseRow(kind, c, common, internal, where);
  row.status = status(result, `${where} result`);
  const applied = row.status === 'applied';
  if (result.errors !== undefined) row.errors = arr(result.errors, `${where} errors`);
  row.consumed_gas = b.ctx.era.consumedMilligas(result, `${where} result`);
  row.storage_size = num(result, 'storage_size', where);
  row.paid_storage_size_diff = num(result, 'paid_storage_size_diff', where);
  const op = b.addOperation(row);
  let lambda = false;
  let ticketsRaw: unknown;

  switch (kind) {
    case 'transaction': {
      const dest = address(c, 'destination', where);
      row.destination = dest;
      row.amount = bigStr(c, 'amount', where);
      const params = c.parameters === undefined ? undefined : obj(c.parameters, `${where} parameters`);
      const info = dest.startsWith('KT1') ? b.contract(dest) : undefined;
      if (info) row.tags = info.tags & OPERATION_TAGS;
      if (params) {
        const value = micheline(params.value, `${where} parameters value`);
        const entrypoint = str(params, 'entrypoint', `${where} parameters`);
        row.parameters = { entrypoint, value };
        row.entrypoint = entrypoint;
        if (info && applied) {
          try {
            row.entrypoint = resolveEntrypoint(info.parameter, { entrypoint, value });
          } catch {
            // a parameter that does not fit the stored type keeps the name the node gave
          }
        }
      } else if (dest.startsWith('KT1') || dest.startsWith('sr1')) row.entrypoint = 'default';
      if (applied) {
        row.storage = optMicheline(result.storage, `${where} storage`);
        row.allocated_destination_contract = result.allocated_destination_contract === true;
        const events = b.ctx.era.bigMapEvents(result, `${where} result`);
        const storage =
          info && row.storage ? { type: info.storage, value: row.storage as Micheline } : undefined;
        const r = applyBigMapEvents(b, events, dest, op, common.temps, new Map(), storage);
        row.big_map_diffs_count = r.diffs;
        lambda = r.lambda;
        ticketsRaw = result.ticket_updates ?? result.ticket_receipt;
      }
      break;
    }
    case 'origination': {
      row.amount = bigStr(c, 'balance', where, '0');
      row.delegate = optAddress(c, 'delegate', where);
      row.allocated_destination_contract = true;
      if (!applied) break;
      const originated = arr(result.originated_contracts, `${where} originated_contracts`);
      const addr =
        originated.length > 0 ? address({ a: originated[0] }, 'a', `${where} originated_contracts`) : null;
      row.destination = addr;
      if (result.allocated_destination_contract === false) row.allocated_destination_contract = false;
      if (!addr || !isObj(c.script)) break;
      const script = obj(c.script, `${where} script`);
      const built = buildScript(micheline(script.code, `${where} code`), (a) => b.constant(a), where);
      if (!built) break;
      const initial = micheline(script.storage, `${where} storage`);
      const literal = b.ctx.era.originationBigMaps?.(built.info.storage, initial, `${where} storage`);
      const events = literal?.events ?? b.ctx.era.bigMapEvents(result, `${where} result`);
      const { storage, names } = literal
        ? { storage: literal.storage, names: new Map<number, string | null>() }
        : originatedStorage(built.info.storage, initial, events);
      row.storage = storage;
      row.tags = built.info.tags & OPERATION_TAGS;
      b.addScript(built.row);
      b.addContract(addr, built.info);
      b.data.contracts.push({
        op,
        address: addr,
        manager: row.source,
        delegate: row.delegate,
        script_hash: built.row.hash,
        tags: built.info.tags,
      });
      b.contractSearchDocument(addr, built.row, built.info.tags);
      const r = applyBigMapEvents(b, events, addr, op, common.temps, names, {
        type: built.info.storage,
        value: storage,
      });
      row.big_map_diffs_count = r.diffs;
      break;
    }
    case 'delegation':
      row.delegate = optAddress(c, 'delegate', where);
      break;
    case 'register_global_constant': {
      const value = micheline(c.value, `${where} value`);
      row.payload = value;
      if (applied) {
        const addr = str(result, 'global_address', where);
        if (!/^expr[1-9A-HJ-NP-Za-km-z]{50}$/.test(addr))
          throw new InvalidNodeDataError(`${where}: invalid global_address`);
        b.addConstant(addr, value, op);
      }
      break;
    }
    case 'transfer_ticket':
      row.destination = address(c, 'destination', where);
      row.entrypoint = optStr(c, 'entrypoint', where);
      bigStr(c, 'ticket_amount', where); // checked; the amounts moved are in the ticket updates (as bcdhub)
      row.payload = optMicheline(c.ticket_contents, `${where} ticket_contents`);
      row.payload_type = optMicheline(c.ticket_ty, `${where} ticket_ty`);
      if (applied) ticketsRaw = result.ticket_updates ?? result.ticket_receipt;
      break;
    case 'event':
      row.tag = optStr(c, 'tag', where);
      row.payload = optMicheline(c.payload, `${where} payload`);
      row.payload_type = optMicheline(c.type, `${where} type`);
      b.touch(row.source, 'events_count');
      break;
    case 'smart_rollup_originate': {
      if (!applied) break;
      const addr = address(result, 'address', where);
      row.destination = addr;
      const type = optMicheline(c.parameters_ty, `${where} parameters_ty`);
      b.data.smartRollups.push({
        op,
        address: addr,
        size: num(result, 'size', where),
        genesis_commitment_hash: optStr(result, 'genesis_commitment_hash', where) ?? '',
        pvm_kind: optStr(c, 'pvm_kind', where) ?? '',
        kernel: optStr(c, 'kernel', where) ?? '',
        type,
      });
      b.data.searchDocuments.push({
        kind: 'smart_rollup',
        key: addr,
        title: addr,
        body: optStr(c, 'pvm_kind', where) ?? '',
      });
      break;
    }
    case 'smart_rollup_execute_outbox_message':
      row.destination = address(c, 'rollup', where);
      row.payload = {
        cemented_commitment: optStr(c, 'cemented_commitment', where),
        output_proof: optStr(c, 'output_proof', where),
      };
      if (applied) ticketsRaw = result.ticket_updates ?? result.ticket_receipt;
      break;
    default: {
      // other manager kinds (reveal, increase_paid_storage, update_consensus_key, smart_rollup_*, dal_*, …)
      for (const f of ['destination', 'rollup', 'contract']) {
        const v = c[f];
        if (typeof v === 'string' && /^(tz[1-4]|KT1|sr1|txr1)/.test(v)) {
          row.destination = address(c, f, where);
          break;
        }
      }
      if (c.amount !== undefined) row.amount = bigStr(c, 'amount', where);
    }
  }

  if (applied) {
    const cpb = b.ctx.costPerByte;
    row.burned = row.paid_storage_size_diff * cpb;
    if (row.allocated_destination_contract) {
      row.allocated_destination_contract_burned = ALLOCATION_BYTES * cpb;
      row.burned += row.allocated_destination_contract_burned;
    }
    if (ticketsRaw !== undefined)
      row.ticket_updates_count = b.ticketUpdates(ticketsRaw, op, `${where} ticket_updates`);
    if (lambda && row.destination) {
      b.data.migrations.push({ op, kind: 'lambda', contract: row.destination, hash: row.hash });
      b.touch(row.destination, 'migrations_count');
    }
  }
  b.touch(row.source, 'operations_count');
  if (row.destination !== row.source && row.destination && !row.destination.startsWith('expr'))
    b.touch(row.destination, 'operations_count');
  if (row.delegate && row.delegate !== row.source) b.touch(row.delegate);
}

/** One operation group (`{hash, contents[]}`) from a block's operations lists. */
export function parseGroup(b: BlockBuilder, raw: unknown, where: string): void {
  const g = obj(raw, where);
  const hash = str(g, 'hash', where);
  if (!/^o[1-9A-HJ-NP-Za-km-z]{50}$/.test(hash))
    throw new InvalidNodeDataError(`${where}: invalid operation hash ${JSON.stringify(hash.slice(0, 60))}`);
  arr(g.contents, `${where} contents`).forEach((rawContent, i) => {
    const w = `${where} (${hash}) contents[${i}]`;
    const c = obj(rawContent, w);
    const kind = str(c, 'kind', w);
    if (b.ctx.era.skippedKinds.has(kind)) return;
    // No receipt (an operation shown before inclusion, or a node answering "metadata": "too large"): the
    // result is unknown, so nothing can be stored for it.
    if (!isObj(c.metadata)) return;
    const meta = c.metadata;
    if (meta.operation_result === undefined) return; // anonymous operations without a manager result
    const result = obj(meta.operation_result, `${w} operation_result`);
    const common: Common = {
      hash,
      counter: num(c, 'counter', w),
      contentIndex: i,
      initiator: optAddress(c, 'source', w),
      temps: new Map(),
    };
    parseOne(b, kind, c, result, common, false, w);
    const internals = arr(
      meta.internal_operation_results ?? meta.internal_operations,
      `${w} internal_operation_results`,
    );
    internals.forEach((rawInternal, j) => {
      const iw = `${w} internal[${j}]`;
      const io = obj(rawInternal, iw);
      parseOne(b, str(io, 'kind', iw), io, obj(io.result, `${iw} result`), common, true, iw);
    });
  });
}

/** `metadata.implicit_operations_results`: subsidy transactions and bootstrap originations (§6.12). */
export function parseImplicit(b: BlockBuilder, raw: unknown, where: string): void {
  arr(raw, where).forEach((item, i) => {
    const w = `${where}[${i}]`;
    const r = obj(item, w);
    const kind = str(r, 'kind', w);
    const common: Common = {
      hash: null,
      counter: b.ctx.level,
      contentIndex: i,
      initiator: null,
      temps: new Map(),
    };
    const row = baseRow(kind, {}, common, false, w);
    row.consumed_gas = b.ctx.era.consumedMilligas(r, w);
    row.storage_size = num(r, 'storage_size', w);
    row.tags = IMPLICIT_OPERATION_TAG;
    if (kind === 'transaction') {
      const credit = arr(r.balance_updates, `${w} balance_updates`)
        .map((u) => obj(u, w))
        .find((u) => u.kind === 'contract' && u.origin === 'subsidy');
      if (!credit) return;
      row.destination = address(credit, 'contract', w);
      row.amount = bigStr(credit, 'change', w);
      row.storage = optMicheline(r.storage, `${w} storage`);
      const op = b.addOperation(row);
      row.big_map_diffs_count = applyBigMapEvents(
        b,
        b.ctx.era.bigMapEvents(r, w),
        row.destination,
        op,
        common.temps,
        new Map(),
      ).diffs;
      b.touch(row.destination, 'operations_count');
    } else if (kind === 'origination') {
      for (const a of arr(r.originated_contracts, `${w} originated_contracts`)) {
        const addr = address({ a }, 'a', `${w} originated_contracts`);
        const op = b.addOperation({ ...row, kind: 'origination', destination: addr });
        const script = b.ctx.implicitScript?.(addr);
        if (script && isObj(script)) {
          const built = buildScript(micheline(script.code, `${w} code`), (x) => b.constant(x), w);
          if (!built) continue;
          b.addScript(built.row);
          b.addContract(addr, built.info);
          b.data.contracts.push({
            op,
            address: addr,
            manager: null,
            delegate: null,
            script_hash: built.row.hash,
            tags: built.info.tags,
          });
          b.contractSearchDocument(addr, built.row, built.info.tags);
          const events = b.ctx.era.bigMapEvents(r, w);
          const st = originatedStorage(built.info.storage, micheline(script.storage, `${w} storage`), events);
          b.data.operations[op]!.storage = st.storage;
          applyBigMapEvents(
            b,
            events.filter((e) => e.kind !== 'update' || e.id >= 0),
            addr,
            op,
            common.temps,
            st.names,
            { type: built.info.storage, value: st.storage },
          );
        }
        b.data.migrations.push({ op, kind: 'bootstrap', contract: addr, hash: null });
        b.touch(addr, 'migrations_count');
      }
    }
  });
}

export type { Micheline };
