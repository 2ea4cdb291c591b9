import { z } from "zod";
import { KEY_SCOPES } from "@/lib/http/permissions";
import { TEAM_ROLES } from "@/lib/roles/ladder";

export const roleSchema = z.enum(TEAM_ROLES).describe("owner > admin > member > viewer");

export const MAX_TEAM_NAME_LENGTH = 100;
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/;

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export const teamNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_TEAM_NAME_LENGTH)
  .refine((name) => !CONTROL.test(name), "The name cannot hold control characters or line breaks")
  .describe("Shown to members and in invitations");

export const slugSchema = z
  .string()
  .regex(SLUG_PATTERN, "3 to 40 lower-case letters, digits and inner hyphens")
  .describe("The team's short name: 3 to 40 of a-z, 0-9 and inner hyphens; unique on the server");

const idSchema = z.string().min(1).max(64);

export const teamParamsSchema = z.object({ team_id: idSchema });
export const memberParamsSchema = z.object({ team_id: idSchema, user_id: idSchema });
export const invitationParamsSchema = z.object({ team_id: idSchema, invitation_id: idSchema });
export const teamKeyParamsSchema = z.object({ team_id: idSchema, key_id: idSchema });

export const createTeamSchema = z
  .object({ name: teamNameSchema, slug: slugSchema.optional().describe("Default: made from the name") })
  .meta({ id: "TeamCreate" });
export type CreateTeamRequest = z.output<typeof createTeamSchema>;

export const updateTeamSchema = z
  .object({
    name: teamNameSchema.optional(),
    slug: slugSchema.optional(),
    require_sso: z
      .boolean()
      .optional()
      .describe(
        "Owner only. True: members act in the team only with a dashboard session that came through the identity provider (OIDC); a session from an e-mail link or the development login is refused with `sso_required`. API keys are not sessions and keep working.",
      ),
  })
  .meta({ id: "TeamUpdate" });
export type UpdateTeamRequest = z.output<typeof updateTeamSchema>;

export const transferSchema = z
  .object({ user_id: idSchema.describe("A member of the team, who becomes its owner") })
  .meta({ id: "TeamTransfer" });

export const changeRoleSchema = z.object({ role: roleSchema }).meta({ id: "MemberRoleChange" });

export const createInvitationSchema = z
  .object({
    email: z.email().max(254).describe("The address the link is mailed to; only a person signed in with it may accept"),
    role: roleSchema
      .default("member")
      .describe("The role the person gets on accepting (owner: only an owner invites one)"),
  })
  .meta({ id: "InvitationCreate" });
export type CreateInvitationRequest = z.output<typeof createInvitationSchema>;

export const acceptInvitationSchema = z
  .object({ token: z.string().min(1).max(200).describe("The token in the mailed link (/invite/{token})") })
  .meta({ id: "InvitationAccept" });

export const auditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).max(400).optional().describe("`next_cursor` of the previous page"),
});

export const teamSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    role: roleSchema.describe("The caller's role in the team"),
    created_at: z.string(),
  })
  .meta({ id: "Team" });
export type TeamOut = z.infer<typeof teamSchema>;

export const teamListSchema = z.object({ teams: z.array(teamSchema) }).meta({ id: "TeamList" });

export const teamDetailSchema = teamSchema
  .extend({
    members_count: z.number().int(),
    require_sso: z.boolean().describe("Members act in the team only after signing in through the identity provider"),
  })
  .meta({ id: "TeamDetail" });

export const memberSchema = z
  .object({
    user_id: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    role: roleSchema,
    joined_at: z.string(),
    managed_by_identity_provider: z
      .boolean()
      .describe("The role comes from the identity provider's claim and is set again at each sign-in"),
  })
  .meta({ id: "TeamMember" });
export type MemberOut = z.infer<typeof memberSchema>;

export const memberListSchema = z.object({ members: z.array(memberSchema) }).meta({ id: "TeamMemberList" });

export const invitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: roleSchema,
    expires_at: z.string(),
    created_at: z.string(),
  })
  .meta({ id: "TeamInvitation" });
export type InvitationOut = z.infer<typeof invitationSchema>;

export const invitationListSchema = z
  .object({ invitations: z.array(invitationSchema).describe("Pending: not accepted, revoked or expired") })
  .meta({ id: "TeamInvitationList" });

export const acceptedSchema = z.object({ team: teamSchema }).meta({ id: "InvitationAccepted" });

export const auditEventSchema = z
  .object({
    id: z.string(),
    at: z.string(),
    actor: z.object({
      id: z.string().nullable().describe("The person; null for a team's API key or the server"),
      label: z.string().describe("Who it was when they acted (kept after they leave)"),
    }),
    action: z.string().describe("One of a closed list: team.*, member.*, invitation.*, key.*, webhook.*, …"),
    target: z.string().nullable(),
    data: z.unknown(),
  })
  .meta({ id: "AuditEvent" });

export const auditListSchema = z
  .object({ events: z.array(auditEventSchema), next_cursor: z.string().nullable() })
  .meta({ id: "AuditEventList" });

export const teamUsageSchema = z
  .object({
    period_start: z.string(),
    period_end: z.string(),
    used_seconds: z.number().int().describe("Charged to the team's allowance this period"),
    members: z.array(
      z.object({
        user_id: z.string(),
        email: z.string().nullable(),
        used_seconds: z.number().int().describe("Seconds of the history entries the member asked for this period"),
        requests: z.number().int().describe("History entries the member asked for this period"),
      }),
    ),
    keys: z
      .array(
        z.object({
          key_id: z.string().nullable().describe("Null: the keys revoked since, together"),
          name: z.string().nullable(),
          prefix: z.string().nullable(),
          used_seconds: z.number().int().describe("Seconds of the history entries the key asked for this period"),
          requests: z.number().int(),
        }),
      )
      .optional()
      .describe("Per team key that asked for entries this period"),
    former_members: z
      .object({ used_seconds: z.number().int(), requests: z.number().int() })
      .optional()
      .describe("The entries asked for this period by people no longer members"),
    other_seconds: z
      .number()
      .int()
      .optional()
      .describe(
        "Charged this period and in no row above (entries no person or key asked for, such as a job's or a " +
          "schedule's, and entries deleted since): members, keys, former members and this add up to used_seconds",
      ),
  })
  .meta({ id: "TeamUsage" });
export type TeamUsageOut = z.infer<typeof teamUsageSchema>;

export const keyScopeSchema = z
  .enum(KEY_SCOPES)
  .describe(
    "read: the library, search, usage; transcribe: every other use of the library (transcribe, correct, import, upload, alerts); publish: publish and unpublish; manage: webhooks and follows",
  );

export const createTeamKeySchema = z
  .object({
    name: teamNameSchema.describe("What the key is for, shown in the list and the audit trail"),
    scopes: z
      .array(keyScopeSchema)
      .min(1)
      .max(KEY_SCOPES.length)
      .refine((scopes) => new Set(scopes).size === scopes.length, "Each scope once")
      .describe("What the key may do; an operation outside them is a 403"),
    expires_at: z.iso
      .datetime({ offset: true })
      .nullable()
      .optional()
      .describe("When the key stops working (a 401 after it); absent or null: never"),
  })
  .meta({ id: "TeamKeyCreate" });
export type CreateTeamKeyRequest = z.output<typeof createTeamKeySchema>;

export const teamKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    key_prefix: z.string().describe("The first characters, to tell keys apart; never the secret"),
    scopes: z.array(keyScopeSchema),
    created_at: z.string(),
    created_by: z.object({ id: z.string(), label: z.string() }).describe("Who made it and was shown its secret"),
    expires_at: z.string().nullable(),
    expired: z.boolean(),
    last_used_at: z.string().nullable().describe("Within a minute"),
  })
  .meta({ id: "TeamKey" });
export type TeamKeyOut = z.infer<typeof teamKeySchema>;

export const createdTeamKeySchema = teamKeySchema
  .extend({ key: z.string().describe("The secret, shown in this answer only: store it now") })
  .meta({ id: "TeamKeyCreated" });

export const teamKeyListSchema = z.object({ keys: z.array(teamKeySchema) }).meta({ id: "TeamKeyList" });

export const AUDIT_EXPORT_FORMATS = ["csv", "jsonl"] as const;

// The years 1 to 9999 once in UTC: an offset can carry a valid ISO 8601 time into the year 0, which PostgreSQL's
// timestamps refuse, or past 9999, which four-digit years cannot write back.
const FIRST_TIME = Date.parse("0001-01-01T00:00:00.000Z");
const LAST_TIME = Date.parse("9999-12-31T23:59:59.999Z");
const auditTime = z.iso
  .datetime({ offset: true })
  .refine((value) => Date.parse(value) >= FIRST_TIME && Date.parse(value) <= LAST_TIME, {
    message: "The time must fall between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z once in UTC",
  });

export const auditExportQuerySchema = z.object({
  format: z.enum(AUDIT_EXPORT_FORMATS).default("csv").describe("csv: text/csv with a header row; jsonl: JSON Lines"),
  actor: z
    .string()
    .min(1)
    .max(320)
    .optional()
    .describe("Only events by this actor: a person's id, or the label the trail keeps (an e-mail, 'API key …')"),
  action: z
    .string()
    .regex(/^[a-z_]{1,40}\.[a-z_]{1,40}$/, "An action's dotted name, as the trail lists it (member.removed)")
    .optional()
    .describe("Only events of this action (member.removed, key.created, …)"),
  from: auditTime.optional().describe("Only events at or after this time"),
  to: auditTime.optional().describe("Only events before this time"),
});
export type AuditExportQuery = z.output<typeof auditExportQuerySchema>;
