import { parseSourceUrl, resolveShortLink, SUPPORTED_PLATFORMS_SENTENCE, type ParsedSource } from "@/lib/sources";
import { RequestValidationError } from "@/lib/http/validation";
import type { Outbound } from "@/lib/http/outbound";
import { mapUpstreamErrors } from "@/lib/captions/upstream-errors";

export interface ResolveDeps {
  outbound: Outbound;
  allowPrivateFor?: (host: string) => boolean;
}

function unsupported(url: string, loc: (string | number)[]): RequestValidationError {
  // A word or a phrase is not a link at all: say that, rather than that the link's site is not supported.
  const notALink = !/[./:]/.test(url.trim());
  const msg = notALink
    ? "Value error, this is not a link. Paste the address of a video or an episode, such as https://www.youtube.com/watch?v=…, or upload a file."
    : `Value error, this link is not supported. ${SUPPORTED_PLATFORMS_SENTENCE}`;
  return new RequestValidationError([{ type: "value_error", loc, msg, input: url, ctx: { error: {} } }]);
}

/** A pasted link → platform and canonical id; short links are expanded through the outbound guard. */
export async function resolveSource(
  url: string,
  deps: ResolveDeps,
  loc: (string | number)[] = ["body", "url"],
): Promise<ParsedSource> {
  const parsed = parseSourceUrl(url.trim(), { allowPrivateFor: deps.allowPrivateFor });
  if (!parsed) throw unsupported(url, loc);
  if (!parsed.needsResolve) return parsed;
  const resolved = await mapUpstreamErrors(() =>
    resolveShortLink(parsed.canonicalUrl, deps.outbound, { allowPrivateFor: deps.allowPrivateFor }),
  );
  if (!resolved || resolved.needsResolve) throw unsupported(url, loc);
  return resolved;
}
