import { z } from "zod";
import { defineEndpoint } from "@/lib/http/endpoint";

export const healthEndpoint = defineEndpoint({
  method: "GET",
  path: "/health",
  tag: "Health",
  summary: "Service health",
  description: "Always 200; `status` is `degraded` when a dependency is down.",
  auth: "none",
  response: z.record(z.string(), z.string()).meta({ id: "Health" }),
});
