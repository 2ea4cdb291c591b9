import { getSubscriptionEndpoint } from "@/lib/usage/endpoints";
import { describeUsage } from "@/lib/usage/describe-usage";
import { getSubscription } from "@/lib/usage/get-subscription";
import { subscriptionResponseSchema } from "@/lib/usage/schemas";

import type { RegisterTool, ToolContext } from "./context";
import { outputOf } from "./inputs";
import { run } from "./run-tool";

export function registerGetUsage(tool: RegisterTool, ctx: ToolContext): void {
  tool(
    "get_usage",
    {
      title: "Show my usage",
      description: "The caller's plan, allowance and use in the current period (seconds), and when the period ends.",
      inputSchema: {},
      outputSchema: outputOf(subscriptionResponseSchema),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      run(ctx, getSubscriptionEndpoint, async () => {
        const usage = await getSubscription(ctx.userId);
        const text = describeUsage(usage);
        return { content: [{ type: "text", text }], structuredContent: usage };
      }),
  );
}
