import { ContractFrame } from '../contract/ContractFrame';
import { OperationsTab } from './OperationsTab';

/** /{network}/{address}/operations */
export function OperationsPage() {
  return <ContractFrame tab="operations">{(data) => <OperationsTab data={data} />}</ContractFrame>;
}
