// The closed list's 409s (its whole: ../error-codes.ts): the state of something forbids it now.
import type { ErrorCodeInfo } from "./info";

export const CONFLICT_CODES = {
  live_not_finished: {
    status: 409,
    retryable: true,
    meaning: "a live stream or premiere that has not ended; ask again after it ends",
  },
  transcription_in_progress: {
    status: 409,
    retryable: true,
    meaning: "the history entry is still running; delete it once it has finished or failed",
  },
  transcript_not_complete: {
    status: 409,
    retryable: true,
    meaning: "the transcript is not done yet; publish it once it is",
  },
  already_subscribed: {
    status: 409,
    retryable: false,
    meaning: "the user already has a subscription; change tiers instead",
  },
  no_subscription: { status: 409, retryable: false, meaning: "the user has no subscription to change" },
  unknown_price: {
    status: 409,
    retryable: false,
    meaning: "the subscription is on a price this service does not sell",
  },
  same_tier: { status: 409, retryable: false, meaning: "the subscription is already on that tier" },
  cancel_scheduled: {
    status: 409,
    retryable: false,
    meaning: "the subscription ends at the period end; resume it before changing tiers",
  },
  upload_in_progress: { status: 409, retryable: true, meaning: "another upload to this URL is in progress" },
  upload_exists: {
    status: 409,
    retryable: false,
    meaning: "a file was already uploaded to this URL; sign a new upload",
  },
  webhook_exists: {
    status: 409,
    retryable: false,
    meaning: "the account has an endpoint for this URL already; change that one (its events) or delete it",
  },
  follow_exists: {
    status: 409,
    retryable: false,
    meaning: "the account follows this feed or channel already; change that follow (PATCH) or delete it",
  },
  follow_paused: {
    status: 409,
    retryable: false,
    meaning: "the follow is paused; resume it (PATCH state active) to check it",
  },
  too_many_alerts: {
    status: 409,
    retryable: false,
    meaning: "the account keeps the most alerts its tier allows (ALERT_MAX_FREE, _PRO, _ULTRA); delete one first",
  },
  too_many_follows: {
    status: 409,
    retryable: false,
    meaning: "the account follows the most shows allowed (FOLLOW_MAX_PER_USER); delete one first",
  },
  too_many_destinations: {
    status: 409,
    retryable: false,
    meaning: "the account keeps the most export destinations allowed (EXPORT_MAX_DESTINATIONS); delete one first",
  },
  destination_exists: {
    status: 409,
    retryable: false,
    meaning: "the account already has an export destination for this folder or Notion database",
  },
  too_many_webhooks: {
    status: 409,
    retryable: false,
    meaning: "the account has the most webhook endpoints allowed; delete one first",
  },
  too_many_keys: {
    status: 409,
    retryable: false,
    meaning: "the team keeps the most named keys allowed (50); revoke one first",
  },
  webhook_disabled: {
    status: 409,
    retryable: false,
    meaning: "the webhook endpoint is disabled; rotate its secret to enable it",
  },
  too_many_deliveries: {
    status: 409,
    retryable: true,
    meaning: "too many deliveries to this endpoint are still waiting to be sent",
  },
  slug_taken: { status: 409, retryable: false, meaning: "another team has this slug; choose another" },
  last_owner: {
    status: 409,
    retryable: false,
    meaning: "the team's last owner cannot be lowered, removed or leave; transfer ownership first",
  },
  domain_claimed: { status: 409, retryable: false, meaning: "the team has claimed this domain already" },
  domain_taken: { status: 409, retryable: false, meaning: "another team has verified this domain" },
  too_many_domains: {
    status: 409,
    retryable: false,
    meaning: "the team has claimed the most domains allowed (TEAM_MAX_DOMAINS); delete one first",
  },
  already_member: { status: 409, retryable: false, meaning: "the person is a member of the team already" },
  too_many_teams: {
    status: 409,
    retryable: false,
    meaning: "the person owns the most teams allowed (TEAM_MAX_OWNED); delete or hand one over first",
  },
  too_many_members: {
    status: 409,
    retryable: false,
    meaning: "the team has the most members allowed (TEAM_MAX_MEMBERS), pending invitations included",
  },
  too_many_invitations: {
    status: 409,
    retryable: false,
    meaning: "the team has the most pending invitations allowed (TEAM_MAX_PENDING_INVITATIONS); revoke one first",
  },
  subscription_active: {
    status: 409,
    retryable: false,
    meaning: "the team has a paid subscription; cancel it before deleting the team",
  },
} as const satisfies Record<string, ErrorCodeInfo>;
