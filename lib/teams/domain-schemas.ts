import { z } from "zod";
import { roleSchema } from "@/lib/teams/schemas";

// A team's domains: what the API takes and answers (lib/teams/domains.ts).

const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])$/;

export const domainNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((domain) => domain.replace(/^@/, "").replace(/\.$/, ""))
  .pipe(z.string().regex(DOMAIN, "A domain name such as example.com (letters, digits, hyphens; ASCII or punycode)"))
  .describe("The e-mail domain, exactly (a subdomain is a domain of its own)");

export const domainParamsSchema = z.object({ team_id: z.string().min(1).max(64), domain: domainNameSchema });

export const createDomainSchema = z
  .object({
    domain: domainNameSchema,
    role: z
      .enum(["admin", "member", "viewer"])
      .default("member")
      .describe("The role a person with a verified e-mail of the domain joins as"),
  })
  .meta({ id: "TeamDomainCreate" });
export type CreateDomainRequest = z.output<typeof createDomainSchema>;

export const domainSchema = z
  .object({
    domain: z.string(),
    role: roleSchema,
    status: z.enum(["pending", "verified"]),
    verification: z
      .object({
        record_type: z.literal("TXT"),
        name: z.string().describe("Where to publish it: `_verbatim.<domain>` (or the domain itself)"),
        value: z.string().describe("The record's value, exactly"),
      })
      .describe("The TXT record that proves the team holds the domain"),
    created_at: z.string(),
    verified_at: z.string().nullable(),
  })
  .meta({ id: "TeamDomain" });
export type DomainOut = z.infer<typeof domainSchema>;

export const domainListSchema = z.object({ domains: z.array(domainSchema) }).meta({ id: "TeamDomainList" });
