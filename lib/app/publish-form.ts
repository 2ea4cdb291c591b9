import { NextRequest } from "next/server";
import { withApi } from "@/lib/rest/with-api";
import { assertSameOrigin } from "@/lib/auth/principal";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";
import { readBodyBytes } from "@/lib/http/body";
import { ApiError, errorResponse, errors } from "@/lib/http/errors";
import { publishEndpoint } from "@/lib/publishing/endpoints";
import { publishTranscript } from "@/lib/publishing/publish";
import { transcriptDeps } from "@/lib/transcripts/deps";

// POST /dashboard/publish: the Publish button as a plain HTML form, for a press before the page's scripts run
// (docs/decisions/0035-controls-work-as-links-and-forms-before-hydration.md). The form's fields become the body of
// POST /v1/publish, answered by the same handler (session, same origin, role, rate limit, audit), and the browser
// is sent back (303) to the page it came from with the outcome: `published=<slug>` or `publish_error=<code>`.
// A refusal of who is asking (401, 403: another site's form, a viewer) is answered as the API answers it.

const FORM_MAX_BYTES = 16 * 1024;

const publishJson = withApi(publishEndpoint, ({ principal, body }) =>
  publishTranscript(principal.userId, body, transcriptDeps()),
);

async function readForm(request: NextRequest): Promise<URLSearchParams> {
  const bytes = await readBodyBytes(request, {
    maxBytes: FORM_MAX_BYTES,
    tooLarge: () => errors.payloadTooLarge(`The publish form is at most ${FORM_MAX_BYTES} bytes.`),
  });
  return new URLSearchParams(new TextDecoder().decode(bytes));
}

/** `back` with the outcome in its query (an earlier outcome taken out). */
function backWith(back: string, outcome: Record<string, string>): string {
  const target = new URL(back, "http://back.invalid");
  target.searchParams.delete("published");
  target.searchParams.delete("publish_error");
  for (const [name, value] of Object.entries(outcome)) target.searchParams.set(name, value);
  return `${target.pathname}${target.search}${target.hash}`;
}

export async function postPublishForm(request: NextRequest): Promise<Response> {
  let form: URLSearchParams;
  try {
    // Before the body is read: another site's form gets nothing done, and nothing back but the refusal.
    assertSameOrigin(request, { required: true });
    form = await readForm(request);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  }
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/json");
  const body: Record<string, string> = { url: form.get("url") ?? "" };
  const lang = form.get("lang");
  if (lang) body.lang = lang;
  const answer = await publishJson(
    new NextRequest(new URL("/v1/publish", request.url), { method: "POST", headers, body: JSON.stringify(body) }),
    { params: Promise.resolve({}) },
  );
  if (answer.status === 401 || answer.status === 403) return answer;
  const json = (await answer.json().catch(() => null)) as { slug?: unknown; code?: unknown } | null;
  const outcome: Record<string, string> =
    answer.ok && typeof json?.slug === "string"
      ? { published: json.slug }
      : { publish_error: typeof json?.code === "string" ? json.code : `http_${answer.status}` };
  const back = safeCallbackPath(form.get("back"), "/dashboard");
  return new Response(null, {
    status: 303,
    headers: { location: backWith(back, outcome), "cache-control": "no-store" },
  });
}
