import type { Principal } from "@/lib/auth/principal";
import { auditOperation } from "@/lib/auth/operation-audit";
import type { Endpoint } from "@/lib/http/endpoint";
import { errors } from "@/lib/http/errors";
import {
  fieldRole,
  fieldScope,
  isAllowed,
  refusalDetail,
  requiredRole,
  requiredScope,
  roleMeets,
  roleRefusalDetail,
  scopeMeets,
  scopeRefusalDetail,
  type RoleRequirement,
  type ScopeRequirement,
} from "@/lib/http/permissions";
import { limitRequest, type RateLimitHeaders } from "@/lib/http/rate-limits";
import { log } from "@/lib/observability/logger";
import { actingAs, teamActor } from "@/lib/membership/actor";
import { assertSessionMayManage } from "@/lib/membership/workspace";

// One pipeline for an operation, whichever front door it came in by (REST's withApi, an MCP tool): the caller's
// role against the operation's least role, its rate-limit row, the body's fields that only some credentials may
// give, the handler run as the person acting, and the team's audit line once it has succeeded. The front doors
// keep only what is theirs: reading the request, the answer's shape and the errors' form.

export interface OperationInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

export interface OperationSteps<T> {
  /** The request's parameters and body, parsed after the role and the rate limit have admitted it. */
  parse?: () => Promise<OperationInput> | OperationInput;
  handle: (input: OperationInput) => Promise<T>;
  /** Whether the handler's answer is a success the trail records (a Response that is not ok, a tool's error, is not). */
  succeeded?: (result: T) => boolean;
  /** What the audit line is read from, when not the input and the answer themselves (an MCP tool's answer names both). */
  audited?: (input: OperationInput, result: T) => { params?: unknown; body?: unknown; result: unknown };
}

export interface OperationCaller {
  request: Request;
  /** Absent for an operation that needs no credential. */
  principal: Principal | undefined;
  /** Given the rate-limit headers as soon as they are known, so an error answer carries them too. */
  onLimit?: (headers: RateLimitHeaders) => void;
}

export async function runOperation<T>(
  endpoint: Endpoint,
  caller: OperationCaller,
  steps: OperationSteps<T>,
): Promise<T> {
  const { principal, request } = caller;
  if (principal) {
    refuseRole(requiredRole(endpoint.method, endpoint.path, endpoint.auth), principal);
    refuseScope(requiredScope(endpoint.method, endpoint.path, endpoint.auth), principal);
  }
  if (endpoint.rateLimit) {
    const headers = await limitRequest(endpoint.rateLimit, request, principal?.userId, principal?.tier);
    caller.onLimit?.(headers);
  }
  const input = (await steps.parse?.()) ?? {};
  if (principal) refuseFields(endpoint, principal, input.body);
  if (principal?.session) await refuseTeamWithoutProvider(endpoint, principal.session, input.params);
  const result = await actingAs(
    principal ? teamActor(principal) : null,
    () => steps.handle(input),
    principal?.teamKey?.id ?? null,
  );
  if (principal && (steps.succeeded?.(result) ?? true)) {
    const audited = steps.audited?.(input, result) ?? { params: input.params, body: input.body, result };
    await auditAfterSuccess(`${endpoint.method} ${endpoint.path}`, principal, audited);
  }
  return result;
}

/**
 * The trail's line for a change that has already happened. Its failure is the trail's, not the operation's: the
 * caller is told the change succeeded (it did). A line the database refuses is kept in the trail's outbox and
 * written later; only when that fails too (the disk refuses it) does the line go to the log whole, so the operator
 * can restore it.
 */
async function auditAfterSuccess(
  operation: string,
  principal: Principal,
  input: { params?: unknown; body?: unknown; result: unknown },
): Promise<void> {
  try {
    await auditOperation(operation, principal, input);
  } catch (error) {
    log.error(
      { err: error, operation, account: principal.userId, person: principal.personId, params: input.params },
      "audit line not written after a successful operation",
    );
  }
}

/** 403 when the caller's role in the account acted in falls short of what the operation needs (permissions.ts). */
function refuseRole(needed: RoleRequirement | null, principal: Principal, field?: string): void {
  if (needed && !roleMeets(needed, principal.role, principal.personId !== null))
    throw errors.forbidden(roleRefusalDetail(needed, principal.role, field));
}

/** 403 when the body gives a field (fieldAuth) that needs a row of the permission table the credential is not in. */
function refuseFields(endpoint: Endpoint, principal: Principal, body: unknown): void {
  for (const [field, permission] of Object.entries(endpoint.fieldAuth ?? {})) {
    const value = (body as Record<string, unknown> | undefined)?.[field];
    if (value === undefined || value === null) continue;
    if (!isAllowed(permission, principal.kind)) throw errors.forbidden(refusalDetail(permission, field));
    // The field's row names its role, not the operation's: a member may transcribe, but only an admin may
    // have the account's request secret sign a delivery.
    refuseRole(fieldRole(permission), principal, field);
    refuseScope(fieldScope(permission), principal);
  }
}

/** 403 when a team's named key lacks the scope the operation (or a field) needs; other credentials have no scopes. */
function refuseScope(needed: ScopeRequirement | null, principal: Principal): void {
  if (principal.scopes && !scopeMeets(needed, principal.scopes))
    throw errors.forbidden(scopeRefusalDetail(needed!, principal.scopes));
}

/** A team's own operations (/v1/teams/{team_id}/…) with a session: refused where the team requires the provider. */
async function refuseTeamWithoutProvider(
  endpoint: Endpoint,
  session: { viaProvider: boolean },
  params: unknown,
): Promise<void> {
  if (!endpoint.path.startsWith("/v1/teams/{team_id}")) return;
  const teamId = (params as { team_id?: unknown } | undefined)?.team_id;
  if (typeof teamId === "string") await assertSessionMayManage(teamId, session);
}
