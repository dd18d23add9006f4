import { alphaEra, babylonEra, florenceEra } from '../parse/era';
import { legacyConstantsParser, modernConstantsParser, modernHandler, type ProtocolHandler } from './handler';

/**
 * Protocol hash → handler. Each protocol family spreads the one before it and overrides what changed;
 * a hash the registry does not know gets `defaultHandler` (the newest behaviour).
 */

/** Genesis/activation protocols: no constants, header only. */
const genesis: ProtocolHandler = {
  ...modernHandler,
  name: 'genesis',
  hasConstants: false,
  era: babylonEra,
  scriptGeneration: null,
};
/**
 * Athens … Florence (001–009): `time_between_blocks` instead of `minimal_block_delay`. Before Babylon
 * (001–004) originations write their single big map as a literal in the storage (alpha era).
 */
const athens: ProtocolHandler = {
  ...modernHandler,
  name: 'athens',
  parseConstants: legacyConstantsParser,
  era: alphaEra,
  scriptGeneration: 'alpha',
};
/** Babylon (005) migrated every pre-Babylon script and gave the single big map of those contracts a pointer. */
const babylon: ProtocolHandler = { ...athens, name: 'babylon', era: babylonEra, scriptGeneration: 'babylon' };
/** Florence (009) introduced `lazy_storage_diff` (and `consumed_milligas`). */
const florence: ProtocolHandler = { ...babylon, name: 'florence', era: florenceEra };
/** Granada (010) introduced `minimal_block_delay`. */
const granada: ProtocolHandler = { ...florence, name: 'granada', parseConstants: modernConstantsParser };
/** Ithaca (012) introduced Tenderbake (preendorsements; Oxford renamed endorsements to attestations). */
const tenderbake: ProtocolHandler = { ...granada, name: 'tenderbake', era: modernHandler.era };
/** Jakarta (013) migrated some scripts again (the reference re-reads a fixed list of 48 mainnet contracts). */
const jakarta: ProtocolHandler = { ...tenderbake, name: 'jakarta', scriptGeneration: 'jakarta' };

export const defaultHandler: ProtocolHandler = jakarta;

const KNOWN: ReadonlyArray<readonly [string, ProtocolHandler]> = [
  ['PrihK96nBAFSxVL1GLJTVhu9YnzkMFiBeuJRPA8NwuZVZCE1L6i', genesis],
  ['PtYuensgYBb3G3x1hLLbCmcav8ue8Kyd2khADcL5LsT5R1hcXex', genesis],
  ['ProtoGenesisGenesisGenesisGenesisGenesisGenesk612im', genesis],
  ['ProtoDemoNoopsDemoNoopsDemoNoopsDemoNoopsDemo6XBoYp', genesis],
  ['Ps9mPmXaRzmzk35gbAYNCAw6UXdE2qoABTHbN2oEEc1qM7CwT9P', athens],
  ['PtCJ7pwoxe8JasnHY8YonnLYjcVHmhiARPJvqcC6VfHT5s8k8sY', athens],
  ['PsYLVpVvgbLhAhoqAkMFUo6gudkJ9weNXhUYCiLDzcUpFpkk8Wt', athens],
  ['PsddFKi32cMJ2qPjf43Qv5GDWLDPZb3T3bF6fLKiF5HtvHNU7aP', athens],
  ['Pt24m4xiPbLDhVgVfABUjirbmda3yohdN82Sp9FeuAXJ4eV9otd', athens],
  ['PsBABY5HQTSkA4297zNHfsZNKtxULfL18y95qb3m53QJiXGmrbU', babylon],
  ['PsBabyM1eUXZseaJdmXFApDSBqj8YBfwELoxZHHW77EMcAbbwAS', babylon],
  ['PsCARTHAGazKbHtnKfLzQg3kms52kSRpgnDY982a9oYsSXRLQEb', babylon],
  ['PsDELPH1Kxsxt8f9eWbxQeRxkjfbxoqM52jvs5Y5fBxWWh4ifpo', babylon],
  ['PtEdoTezd3RHSC31mpxxo1npxFjoWWcFgQtxapi51Z8TLu6v6Uq', babylon],
  ['PtEdo2ZkT9oKpimTah6x2embF25oss54njMuPzkJTEi5RqfdZFA', babylon],
  ['PsFLorenaUUuikDWvMDr6fGBRG8kt3e3D3fHoXK1j1BFRxeSH4i', florence],
  ['PtGRANADsDU8R9daYKAgWnQYAJ64omN1o3KMGVCykShA97vQbvV', granada],
  ['PtHangzHogokSuiMHemCuowEavgYTP8J5qQ9fQS793MHYFpCY3r', granada],
  ['PtHangz2aRngywmSRGGvrcTyMbbdpWdpFKuS4uMWxg2RaH9i1qx', granada],
  ['PsiThaCaT47Zboaw71QWScM8sXeMM7bbQFncK9FLqYc6EKdpjVP', tenderbake],
  ['Psithaca2MLRFYargivpo7YvUr7wUDqyxrdhC5CQq78mRvimz6A', tenderbake],
  ['PtJakartaiDz69SfDDLXJSiuZqTSeSKRDbKVZC8MNzJnvRjvnGw', jakarta],
  ['PtJakart2xVj7pYXJBXrqHgd82rdkLey5ZeeGwDgPp9rhQUbSqY', jakarta],
  ['PtKathmankSpLLDALzWw7CGD2j2MtyveTwboEYokqUCP4a1LxMg', jakarta],
  ['PtLimaPtLMwfNinJi9rCfDPWea8dFgTZ1MeJ9f1m2SRic6ayiwW', jakarta],
  ['PtMumbaiiFFEGbew1rRjzSPyzRbA51Tm3RVZL5suHPxSZYDhCEc', jakarta],
  ['PtMumbai2TmsJHNGRkD8v8YDbtao7BLUC3wjASn1inAKLFCjaH1', jakarta],
  ['PtNairobiyssHuh87hEhfVBGCVrK3WnS8Z2FT4ymB5tAa4r1nQf', jakarta],
  ['ProxfordYmVfjWnRcgjWH36fW6PArwqykTFzotUxRs6gmTcZDuH', jakarta],
  ['PtParisBxoLz5gzMmn3d9WBQNoPSZakgnkMC2VNuQ3KXfUtUQeZ', jakarta],
  ['PsParisCZo7KAh1Z1smVd9ZMZ1HHn5gkzbM94V3PLCpknFWhUAi', jakarta],
  ['PsQuebecnLByd3JwTiGadoG4nGWi3HYiLXUjkibeFV8dCFeVMUg', jakarta],
  ['PsRiotumaAMotcRoDWW1bysEhQy2n1M5fy8JgRp8jjRfHGmfeA7', jakarta],
  ['PtSeouLouXkxhg39oWzjxDWaCydNfR3RxCUrNe4Q9Ro8BTehcbh', jakarta],
  ['PtTALLiNtPec7mE7yY4m3k26J8Qukef3E3ehzhfXgFZKGtDdAXu', jakarta],
  ['PsUshuai9QapM5TGj1JpuVGkdxz5GykdnEvS6Rh8SUVrARvZLCY', jakarta],
];

export class ProtocolRegistry {
  private readonly handlers = new Map<string, ProtocolHandler>();

  constructor(
    entries: Iterable<readonly [string, ProtocolHandler]> = KNOWN,
    private readonly fallback: ProtocolHandler = defaultHandler,
  ) {
    for (const [hash, handler] of entries) this.handlers.set(hash, handler);
  }

  /** The handler of `hash`, or the default handler for a protocol this registry does not know. */
  get(hash: string): ProtocolHandler {
    return this.handlers.get(hash) ?? this.fallback;
  }

  has(hash: string): boolean {
    return this.handlers.has(hash);
  }

  /**
   * What the change from protocol `prev` to `next` does to contract scripts: null when nothing (same
   * generation, or a genesis-like protocol on either side); otherwise every contract's script is re-read at the
   * first block of `next`, and `legacyBigMaps` says that pre-Babylon big maps (pointer -1) get their pointer.
   */
  scriptMigration(prev: string, next: string): { legacyBigMaps: boolean } | null {
    const from = this.get(prev).scriptGeneration;
    const to = this.get(next).scriptGeneration;
    if (from === null || to === null || from === to) return null;
    return { legacyBigMaps: from === 'alpha' };
  }

  /** Adds or replaces the handler of a protocol (e.g. a sandbox's own protocol hash). */
  register(hash: string, handler: ProtocolHandler): void {
    this.handlers.set(hash, handler);
  }
}

export const defaultRegistry = (): ProtocolRegistry => new ProtocolRegistry();
