import { AsyncLocalStorage } from "node:async_hooks";

// The person a request acts for in a team's library, for per-member usage (Transcription.actorId). Set once where
// the credential is resolved (withApi, the MCP endpoint, the dashboard's actions), read where a history entry is
// made, so the dozen paths between the route and the insert need not carry it. Jobs and schedules run outside any
// request: their entries have no actor. A team's key has no person; its entries name the key (teamKeyId) instead.

const actor = new AsyncLocalStorage<{ personId: string | null; teamKeyId: string | null }>();

/**
 * Runs `fn` with `personId` as the one acting in a team (null: a person's own account, or no one person), or with
 * the team key `teamKeyId` that made the request.
 */
export function actingAs<T>(personId: string | null, fn: () => T, teamKeyId: string | null = null): T {
  return actor.run({ personId, teamKeyId }, fn);
}

/** The person acting in a team's library in this request, or null. */
export function currentActor(): string | null {
  return actor.getStore()?.personId ?? null;
}

/** The team key acting in its team's library in this request, or null. */
export function currentTeamKey(): string | null {
  return actor.getStore()?.teamKeyId ?? null;
}

/** Who a principal acts as: the person, when the account acted in is a team (not their own). */
export function teamActor(principal: { userId: string; personId: string | null }): string | null {
  return principal.personId !== null && principal.personId !== principal.userId ? principal.personId : null;
}
