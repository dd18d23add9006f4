/**
 * A contract's used and paid storage as the node counts them (Octez `Contract_storage` / `Fees`): an origination
 * uses its code, its storage, their length prefixes and its lazy storage, all paid at once; a call changes the
 * used bytes by the change of its storage value and of its lazy storage, and pays only for what exceeds what the
 * contract has paid before (paid storage never shrinks).
 */
import { STORAGE_BYTES } from '@michelscope/interpreter';

/**
 * Bytes an originated contract uses (and pays): its code's and storage value's binary forms (`exprBytes`), their
 * length prefixes and its lazy storage.
 */
export function originatedBytes(codeBytes: bigint, storageBytes: bigint, lazyBytes: bigint): bigint {
  return codeBytes + storageBytes + STORAGE_BYTES.scriptPrefix + lazyBytes;
}

/** The used and paid bytes after a call, and the growth of the paid bytes (what the call burns for). */
export function afterCall(c: {
  used: bigint;
  paid: bigint;
  oldStorageBytes: bigint;
  newStorageBytes: bigint;
  lazyBytes: bigint;
}): { used: bigint; paid: bigint; paidDiff: bigint } {
  const used = c.used + c.newStorageBytes - c.oldStorageBytes + c.lazyBytes;
  const paidDiff = used > c.paid ? used - c.paid : 0n;
  return { used, paid: c.paid + paidDiff, paidDiff };
}
