import { withApi } from "@/lib/rest/with-api";
import { listLanguagesEndpoint } from "@/lib/transcripts/endpoints";
import { listLanguages } from "@/lib/transcripts/list-languages";
import { transcriptDeps } from "@/lib/transcripts/deps";

export const GET = withApi(listLanguagesEndpoint, ({ query }) => listLanguages(query.url, transcriptDeps()));
