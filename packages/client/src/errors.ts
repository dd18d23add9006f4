/** An answer other than 2xx: its HTTP status and the API's `{"message"}` (every error body of the API has one). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** The HTTP status (404, 400, 429, …). */
    readonly status: number,
    /** The API's `message`, or the status text when the body had none (a proxy's page, say). */
    message: string,
    /** The method and URL that failed. */
    readonly request: { method: string; url: string },
    /** The parsed error body as the API sent it (`{ message, request_id? }`), or its text. */
    readonly body: unknown,
  ) {
    super(message);
  }

  /** The `request_id` the API adds to a 5xx answer (give it when reporting the error), if any. */
  get requestId(): string | undefined {
    const id = (this.body as { request_id?: unknown } | null)?.request_id;
    return typeof id === 'string' ? id : undefined;
  }

  /** From a failed response and its already-read body (JSON or text). */
  static from(response: Response, body: unknown, method = 'GET'): ApiError {
    const message =
      typeof (body as { message?: unknown } | null)?.message === 'string'
        ? (body as { message: string }).message
        : typeof body === 'string' && body !== ''
          ? body.slice(0, 500)
          : response.statusText || `HTTP ${response.status}`;
    return new ApiError(response.status, message, { method, url: response.url }, body);
  }
}
