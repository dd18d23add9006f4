/**
 * How an entry of the resource registry (./resources.ts) is written: a GET resource or a POST action, its
 * mount (service base, timeout, error message), and the path pieces the domains' entries share.
 */
export const enc = encodeURIComponent;

/** A page of a list resource. */
export interface Page {
  size: number;
  offset: number;
}

/** Where a resource is mounted and how it is asked (defaults: the main API, 30 s). */
export interface Mount {
  /** The service's base path: the main API (`/v1`, default), `/search/v1`, `/stats/v1`, `/metadata/v1`, `/rpc`. */
  base?: string;
  timeoutMs?: number;
  /** The error message of a non-2xx answer (default: the body's `message`). */
  errorMessage?: (response: Response, text: string) => string;
}

/** One GET resource: its path under its base for some params, and (as a phantom type) its answer. */
export interface Resource<P, R> extends Mount {
  path: (params: P) => string;
  /** Never set: carries the response type. */
  readonly response?: R;
}

/** One POST resource (an action): also the type of its JSON body. */
export interface Action<P, B, R> extends Resource<P, R> {
  method: 'POST';
  /** Never set: carries the body type. */
  readonly body?: B;
}

export const resource = <P, R>(path: (params: P) => string, mount: Mount = {}): Resource<P, R> => ({
  path,
  ...mount,
});
export const action = <P, B, R>(path: (params: P) => string, mount: Mount = {}): Action<P, B, R> => ({
  path,
  method: 'POST',
  ...mount,
});
export const page = (p: Page) => `size=${p.size}&offset=${p.offset}`;
/** The contract lists' order of the paging parameters (as the pages have always asked). */
export const offsetFirst = (p: Page) => `offset=${p.offset}&size=${p.size}`;
export const contract = (p: { network: string; address: string }) =>
  `/contract/${enc(p.network)}/${enc(p.address)}`;
export type At = { network: string; address: string };
