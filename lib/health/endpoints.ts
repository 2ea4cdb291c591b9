import { z } from "zod";
import { defineEndpoint } from "@/lib/http/endpoint";

export const healthEndpoint = defineEndpoint({
  method: "GET",
  path: "/health",
  tag: "Health",
  summary: "Service health",
  description:
    "Always 200; `status` is `degraded` when a dependency is down. Everyone gets what works (`youtube_links`, `platform_links`, `files`: `available`, `unavailable` or `checking`) and the setup's summary (`setup`); an operator's signed-in browser also gets which checks fail and why (`view: operator`, `setup_failing`, `setup_<check>`, `setup_<check>_fix`).",
  auth: "none",
  response: z.record(z.string(), z.string()).meta({ id: "Health" }),
});
