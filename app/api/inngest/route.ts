// Inngest calls this endpoint to sync and run the app's functions. Only meaningful with Inngest
// configured (INNGEST_EVENT_KEY / INNGEST_SIGNING_KEY, or INNGEST_DEV); otherwise jobs run on the
// local runner and this answers 503.
import type { NextRequest } from "next/server";
import { errorResponse, errors } from "@/lib/http/errors";
import { inngestConfigured } from "@/lib/jobs/drivers/inngest-settings";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Handler = (request: NextRequest, context: unknown) => Promise<Response>;
let served: Promise<Record<"GET" | "POST" | "PUT", Handler>> | undefined;

async function serveInngest() {
  const [{ serve }, { inngest }, { createRunPipelineFunction }, { appPipelines }] = await Promise.all([
    import("inngest/next"),
    import("@/lib/jobs/drivers/inngest-client"),
    import("@/lib/jobs/drivers/inngest"),
    import("@/lib/app/pipelines"),
  ]);
  return serve({ client: inngest, functions: [createRunPipelineFunction(inngest, { pipelines: appPipelines })] });
}

function route(method: "GET" | "POST" | "PUT"): Handler {
  return async (request, context) => {
    if (!inngestConfigured()) {
      return errorResponse(
        errors.notConfigured(
          "inngest_not_configured",
          "Inngest is not configured on this server; jobs run on the local runner.",
        ),
      );
    }
    served ??= serveInngest();
    return (await served)[method](request, context);
  };
}

export const GET = route("GET");
export const POST = route("POST");
export const PUT = route("PUT");
