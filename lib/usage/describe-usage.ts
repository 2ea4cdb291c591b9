import { spokenDuration } from "@/lib/formats/spoken-duration";

// The one sentence about a caller's allowance, for the MCP tool and the CLI (pure: the CLI imports it).

export interface UsageFacts {
  tier: string;
  used_seconds: number;
  limit_seconds: number;
  unlimited?: boolean;
  current_period_end?: string | null;
}

/**
 * "No limit on this server: 4 min 3 s transcribed this period." or
 * "Free plan: 12 min of 15 min used, 3 min left; the period ends 2026-12-01."
 */
export function describeUsage(usage: UsageFacts): string {
  const end = usage.current_period_end ? `; the period ends ${usage.current_period_end.slice(0, 10)}` : "";
  if (usage.unlimited) return `No limit on this server: ${spokenDuration(usage.used_seconds)} transcribed this period.`;
  const left = Math.max(0, usage.limit_seconds - usage.used_seconds);
  const plan = usage.tier.charAt(0).toUpperCase() + usage.tier.slice(1);
  return `${plan} plan: ${spokenDuration(usage.used_seconds)} of ${spokenDuration(usage.limit_seconds)} used, ${spokenDuration(left)} left${end}.`;
}
