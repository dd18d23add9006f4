/**
 * The fetch client for the main API (same origin, /v1). One place for the timeout, the error shape and
 * JSON parsing; resource functions in ./resources.ts validate what comes back.
 */

/** Main API and node RPC requests give up after 30 s (discovery spec §9). */
export const API_TIMEOUT_MS = 30_000;
export const API_BASE = '/v1';

/** A request that failed: HTTP status when the server answered (0 for network errors and timeouts). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  /** Injected for tests; defaults to the global fetch. */
  fetchFn?: typeof fetch | undefined;
  /** Extra request headers (a watch rule's `Authorization: Bearer <token>`). */
  headers?: Record<string, string> | undefined;
}

function combineSignals(timeoutMs: number, signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  if (!signal) return timeout;
  return AbortSignal.any([signal, timeout]);
}

/** Reads the `message` of an error body, or null when the body is not `{"message": string}`. */
export function errorMessageFromBody(text: string): string | null {
  try {
    const body: unknown = JSON.parse(text);
    if (body !== null && typeof body === 'object' && 'message' in body) {
      const { message } = body;
      if (typeof message === 'string' && message.trim() !== '') return message;
    }
  } catch {
    // not JSON: fall through
  }
  return null;
}

/** GETs `${API_BASE}${path}` and returns the parsed JSON body (unknown: callers validate it). */
export async function getJson(path: string, options: RequestOptions = {}): Promise<unknown> {
  const result = await requestJson(`${API_BASE}${path}`, options);
  return result.body;
}

export interface JsonRequestOptions extends RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE' | undefined;
  /** Serialised as JSON. */
  body?: unknown;
  /** Builds the error message of a non-2xx answer (default: the body's message, else the status text). */
  errorMessage?: ((response: Response, text: string) => string) | undefined;
}

/** The answer of a request: its status (e.g. 204 for "no content") and its parsed JSON body (null when empty). */
export interface JsonResult {
  status: number;
  body: unknown;
  /** The answer's headers (a view run says there where it ran: x-simulated-level…). */
  headers?: Headers;
}

const defaultErrorMessage = (response: Response, text: string): string =>
  errorMessageFromBody(text) ?? (response.statusText || `Request failed with status code ${response.status}`);

/** Sends one request to `url` and parses the JSON answer; every failure becomes an ApiError. */
export async function requestJson(url: string, options: JsonRequestOptions = {}): Promise<JsonResult> {
  const { signal, timeoutMs = API_TIMEOUT_MS, fetchFn = fetch, method = 'GET', body } = options;
  let response: Response;
  try {
    const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    response = await fetchFn(url, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: combineSignals(timeoutMs, signal),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      throw new ApiError(`Request to ${url} timed out after ${Math.round(timeoutMs / 1000)} s`, 0);
    }
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(`Network error while requesting ${url}`, 0);
  }

  const text = await response.text();
  if (!response.ok) {
    throw new ApiError((options.errorMessage ?? defaultErrorMessage)(response, text), response.status);
  }
  const { headers } = response;
  if (response.status === 204 || text.trim() === '') return { status: response.status, body: null, headers };
  try {
    return { status: response.status, body: JSON.parse(text), headers };
  } catch {
    throw new ApiError(`Invalid JSON in the response of ${url}`, response.status);
  }
}

/**
 * Opens a streamed answer (an export): the Response of a 2xx answer with a body, for the caller to read as it
 * arrives; otherwise an ApiError with the body's message (or the status). No timeout: the caller's signal
 * ends it.
 */
export async function openStream(
  url: string,
  options: { body?: unknown; signal: AbortSignal; fetchFn?: typeof fetch | undefined },
): Promise<Response & { body: ReadableStream<Uint8Array> }> {
  const { body, signal, fetchFn = fetch } = options;
  const res = await fetchFn(
    url,
    body === undefined
      ? { signal }
      : {
          signal,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        },
  );
  if (!res.ok || !res.body) {
    let message = `${res.status} ${res.statusText}`;
    try {
      message = ((await res.json()) as { message?: string }).message ?? message;
    } catch {
      /* not JSON */
    }
    throw new ApiError(message, res.status);
  }
  return res as Response & { body: ReadableStream<Uint8Array> };
}
