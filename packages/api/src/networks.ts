import type { ApiNetwork } from './options';

/** Mainnet first, then the others by name descending: the order wherever networks are listed. */
export function sortNetworks<T extends { name: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => {
    if (a.name === b.name) return 0;
    if (a.name === 'mainnet') return -1;
    if (b.name === 'mainnet') return 1;
    return a.name < b.name ? 1 : -1;
  });
}

/** The configured networks, in display order, with lookup by name. */
export class NetworkRegistry {
  readonly list: readonly ApiNetwork[];
  private readonly byName: ReadonlyMap<string, ApiNetwork>;

  constructor(networks: readonly ApiNetwork[]) {
    const names = new Set<string>();
    for (const n of networks) {
      if (names.has(n.name)) throw new Error(`network "${n.name}" is configured twice`);
      names.add(n.name);
    }
    this.list = sortNetworks(networks);
    this.byName = new Map(this.list.map((n) => [n.name, n]));
  }

  get names(): string[] {
    return this.list.map((n) => n.name);
  }

  get(name: string): ApiNetwork | undefined {
    return this.byName.get(name);
  }
}
