// Browser-side calls to our own /v1 API with the session cookie. Errors carry the API's `detail`
// (for a 422, the first item's `msg`, after its field name) and, when the API sent one, its machine `code`.

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

const FIELD_LABELS: Readonly<Record<string, string>> = {
  url: "The link",
  audio: "The audio link",
  upload: "The upload",
  lang: "The language",
  format: "The format",
};

/**
 * The sentence to show for an error body: `detail` as a string, or the first 422 item's `msg` as a
 * sentence: the validator's "Value error, " dropped, a bare predicate ("must be a language tag…")
 * given its field ("The language must be…"), a generic one ("String should…") named after its field.
 */
export function errorMessage(status: number, body: unknown): string {
  const detail = body && typeof body === "object" ? (body as { detail?: unknown }).detail : undefined;
  if (typeof detail === "string" && detail.trim() !== "") return detail;
  if (Array.isArray(detail)) {
    // FastAPI-style items: {loc: ["body", "lang"], msg, type}.
    const first = detail[0] as { msg?: unknown; loc?: unknown } | undefined;
    if (first && typeof first.msg === "string") {
      const field = Array.isArray(first.loc) && first.loc.length > 1 ? first.loc[first.loc.length - 1] : null;
      const label = typeof field === "string" ? (FIELD_LABELS[field] ?? `The ${field} field`) : null;
      const msg = first.msg.replace(/^(value|assertion) error,\s*/i, "").trim();
      if (label && /^(must|should|is|cannot|may|has)\b/.test(msg)) return `${label} ${msg}`;
      if (label && /^(input|string|list|value|field)\b/i.test(msg))
        return `${label}: ${msg.charAt(0).toLowerCase()}${msg.slice(1)}`;
      return msg.charAt(0).toUpperCase() + msg.slice(1);
    }
  }
  return `Request failed (${status})`;
}

/** The API's machine `code` in an error body, when it sent one (for a 422, the first item's `type`). */
export function errorCode(body: unknown): string | null {
  const fields = body && typeof body === "object" ? (body as { code?: unknown; detail?: unknown }) : {};
  if (typeof fields.code === "string") return fields.code;
  const first = Array.isArray(fields.detail) ? (fields.detail[0] as { type?: unknown } | undefined) : undefined;
  return typeof first?.type === "string" ? first.type : null;
}

/** The status and parsed JSON body of a successful call; throws ApiRequestError otherwise. */
export async function apiFetchWithStatus<T>(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(path, {
    ...init,
    headers: { accept: "application/json", ...init.headers },
    credentials: "same-origin",
  });
  const body = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) throw new ApiRequestError(response.status, errorMessage(response.status, body), errorCode(body));
  return { status: response.status, body: body as T };
}

export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  return (await apiFetchWithStatus<T>(path, init)).body;
}
