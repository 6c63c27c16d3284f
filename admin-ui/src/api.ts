// Owns talking to the API: GET with the optional bearer token, JSON or problem+json bodies, and the
// time each request took.

export interface ApiResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly body: unknown;
  /** The body as text when it was not JSON. */
  readonly text: string;
  readonly milliseconds: number;
  readonly headers: Headers;
}

/** A problem+json body (docs/errors.md, "The problem body"), or the parts of it that came back. */
export interface ProblemBody {
  readonly status?: number;
  readonly title?: string;
  readonly detail?: string;
  readonly code?: string;
  readonly parameter?: string;
  readonly allowed?: unknown;
  /** An entry whose list an earlier entry holds names it in `allowed_from` instead of `allowed`. */
  readonly errors?: ReadonlyArray<{ code?: string; parameter?: string; detail?: string; allowed?: unknown; allowed_from?: number }>;
}

/** GETs `url` (same origin), sending `Authorization: Bearer <token>` when a token is given. */
export async function apiGet(url: string, token: string): Promise<ApiResponse> {
  const headers: Record<string, string> = { Accept: 'application/json, application/problem+json' };
  if (token.trim() !== '') headers.Authorization = `Bearer ${token.trim()}`;
  const started = performance.now();
  const response = await fetch(url, { headers });
  const text = await response.text();
  const milliseconds = Math.round(performance.now() - started);
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, statusText: response.statusText, ok: response.ok, body, text, milliseconds, headers: response.headers };
}

export function asProblem(body: unknown): ProblemBody | undefined {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? body : undefined;
}

/**
 * A busy server (503 SERVER_BUSY) is not a mistake to show in full: `The server is busy, try again
 * in 2 s.`, the seconds from its Retry-After header.
 */
export function busyMessage(response: ApiResponse): string | undefined {
  if (asProblem(response.body)?.code !== 'SERVER_BUSY') return undefined;
  const seconds = Number.parseInt(response.headers.get('Retry-After') ?? '', 10);
  return `The server is busy, try again in ${Number.isFinite(seconds) && seconds > 0 ? seconds : 1} s.`;
}

/** `HTTP 400` with the problem's title and detail, or the text that came back. */
export function describeFailure(response: ApiResponse): string {
  const busy = busyMessage(response);
  if (busy !== undefined) return busy;
  const problem = asProblem(response.body);
  const head = `HTTP ${response.status}${problem?.title ? ` ${problem.title}` : response.statusText ? ` ${response.statusText}` : ''}`;
  if (problem?.detail) return `${head}: ${problem.detail}`;
  return response.text === '' ? head : `${head}: ${response.text.slice(0, 300)}`;
}
