import { withApi } from "@/lib/rest/with-api";
import { assemblyAiWebhookEndpoint } from "@/lib/transcripts/endpoints";
import { receiveAssemblyAiWebhook } from "@/lib/transcripts/asr-provider";

export const POST = withApi(assemblyAiWebhookEndpoint, async ({ request, body }) =>
  receiveAssemblyAiWebhook(request, body),
);
