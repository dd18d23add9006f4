import { ContractFrame } from './ContractFrame';
import { StorageTab } from './StorageTab';

/** /{network}/{address}/storage */
export function StoragePage() {
  return <ContractFrame tab="storage">{(data) => <StorageTab data={data} />}</ContractFrame>;
}
