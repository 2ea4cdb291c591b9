import { z } from "zod";

const text = (max: number) => z.string().max(max);

// Device flow (contract "Device flow").
export const deviceCodeRequestSchema = z
  .object({
    client_id: text(200).optional().describe("the program asking (free text, shown to the user on the /device page)"),
    scope: text(200).optional(),
  })
  .meta({ id: "DeviceCodeRequest" });

export const deviceCodeResponseSchema = z
  .object({
    device_code: z.string(),
    user_code: z.string().describe("8 letters from BCDFGHJKLMNPQRSTVWXZ, shown as XXXX-XXXX"),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    interval: z.number().int(),
    expires_in: z.number().int(),
  })
  .meta({ id: "DeviceCodeResponse" });

export const deviceTokenRequestSchema = z.object({ device_code: text(256).min(1) }).meta({ id: "DeviceTokenRequest" });

/** The workspace a grant acts in, chosen at consent: a team the person is a member (or more) of; absent or null, their own account. */
const grantWorkspace = text(64)
  .nullable()
  .optional()
  .describe("a team you are a member (or admin, owner) of, for the grant to act in; absent or null: your own account");

export const deviceApproveRequestSchema = z
  .object({ user_code: text(64).min(1), workspace_id: grantWorkspace })
  .meta({ id: "DeviceApproveRequest" });

export const deviceApproveResponseSchema = z
  .object({ approved: z.boolean().default(true).describe("true once approved; false after a denial") })
  .meta({ id: "DeviceApproveResponse" });

export const tokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int(),
    refresh_token: z.string(),
    scope: z.string(),
  })
  .meta({ id: "TokenResponse" });

// OAuth for connectors.
export const tokenRequestSchema = z
  .object({
    grant_type: text(200).optional(),
    code: text(512).optional(),
    redirect_uri: text(2048).optional(),
    code_verifier: text(256).optional(),
    refresh_token: text(512).optional(),
    device_code: text(256).optional(),
    client_id: text(200).optional(),
    client_secret: text(512).optional(),
    scope: text(200).optional(),
    resource: text(2048).optional(),
  })
  .meta({ id: "TokenRequest" });

export const revokeRequestSchema = z
  .object({
    token: text(512),
    token_type_hint: text(64).optional(),
    client_id: text(200).optional(),
    client_secret: text(512).optional(),
  })
  .meta({ id: "RevokeRequest" });

export const TOKEN_ENDPOINT_AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"] as const;

export const registerRequestSchema = z
  .object({
    redirect_uris: z
      .array(text(2048))
      .max(10)
      .default([])
      .describe("required for the authorization_code grant; a device-grant-only client may send none"),
    client_name: text(200).nullable().optional(),
    token_endpoint_auth_method: text(64).optional(),
    grant_types: z.array(text(200)).max(5).optional(),
    response_types: z.array(text(64)).max(5).optional(),
    scope: text(200).nullable().optional(),
    client_uri: text(2048).nullable().optional(),
  })
  .meta({ id: "RegisterRequest" });

export const registerResponseSchema = z
  .object({
    client_id: z.string(),
    client_id_issued_at: z.number().int(),
    client_secret: z
      .string()
      .optional()
      .describe("only for confidential clients (client_secret_basic or client_secret_post)"),
    client_secret_expires_at: z.number().int().optional(),
    client_name: z.string().optional(),
    client_uri: z.string().optional(),
    redirect_uris: z.array(z.string()),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    token_endpoint_auth_method: z.string(),
    scope: z.string(),
  })
  .meta({ id: "RegisterResponse" });

export const authorizeGrantRequestSchema = z
  .object({
    client_id: text(200),
    redirect_uri: text(2048),
    code_challenge: z
      .string()
      .regex(/^[A-Za-z0-9._~-]{43,128}$/, "must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~"),
    code_challenge_method: z.literal("S256").default("S256"),
    state: text(2048).nullable().optional(),
    scope: text(200).nullable().optional(),
    resource: text(2048).nullable().optional(),
    decision: z
      .enum(["approve", "deny"])
      .default("approve")
      .describe("deny sends the browser back with error=access_denied"),
    workspace_id: grantWorkspace,
  })
  .meta({ id: "AuthorizeGrantRequest" });

export const authorizeGrantResponseSchema = z
  .object({ redirect_to: z.string().describe("the client's redirect URI with code (or error), state and iss") })
  .meta({ id: "AuthorizeGrantResponse" });

export const serverMetadataSchema = z
  .looseObject({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    registration_endpoint: z.string(),
    revocation_endpoint: z.string(),
    device_authorization_endpoint: z.string(),
    response_types_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
  })
  .meta({ id: "AuthorizationServerMetadata" });

export const emptySchema = z.object({}).meta({ id: "Empty" });

// The dashboard's list of connected apps (OAuth connectors and device logins).
export const connectionSchema = z
  .object({
    id: z.string().describe("the grant (every token rotated from one approval)"),
    kind: z.enum(["connector", "device"]),
    name: z.string().describe("the app's registered name, or the name the device program gave"),
    client_id: z.string().nullable(),
    scope: z.string(),
    connected_at: z.string(),
    last_used_at: z.string().nullable(),
  })
  .meta({ id: "Connection" });

export const connectionListSchema = z.object({ items: z.array(connectionSchema) }).meta({ id: "ConnectionList" });
export const connectionParamsSchema = z.object({ id: z.string().min(1).max(100) });
export const connectionRevokedSchema = z
  .object({ revoked: z.number().int().describe("tokens revoked") })
  .meta({ id: "ConnectionRevoked" });
