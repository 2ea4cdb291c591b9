import { withApi } from "@/lib/http/with-api";
import { clientAddress, createRateLimiter } from "@/lib/http/rate-limit";
import { listLanguagesEndpoint } from "@/lib/transcripts/endpoints";
import { listLanguages } from "@/lib/transcripts/list-languages";
import { transcriptDeps } from "@/lib/transcripts/deps";
import { env } from "@/lib/env";

const limiter = createRateLimiter(env().LANGUAGES_RATE_PER_MINUTE, 60_000);

export const GET = withApi(listLanguagesEndpoint, ({ request, query }) => {
  limiter.check(clientAddress(request));
  return listLanguages(query.url, transcriptDeps());
});
