import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { scimErrors } from "@/lib/scim/http";
import { equalityFilter } from "@/lib/scim/filter";
import { provisioning, syncMembership, type ScimTeam, type Tx } from "@/lib/scim/membership";
import { applyPatch } from "@/lib/scim/patch";
import { GROUP_SCHEMA, listResponse, meta, page, patchOperations, resourceUrl } from "@/lib/scim/resources";
import type { OwnersNotice } from "@/lib/membership/role-loss";

// SCIM Groups (RFC 7643 §4.2): the identity provider's groups, which give roles through OIDC_TEAM_ROLES (by
// displayName or externalId). Every change of a group's name or members sets the role of each person it touches.

const MAX_NAME = 256;

interface GroupInput {
  displayName: string;
  externalId: string | null;
  members: string[];
}

function groupInput(body: Record<string, unknown>): GroupInput {
  const get = (name: string) => Object.entries(body).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  const displayName = get("displayName");
  if (typeof displayName !== "string" || !displayName.trim() || displayName.length > MAX_NAME)
    throw scimErrors.invalidValue(`displayName is required: a string of 1 to ${MAX_NAME} characters.`);
  const externalId = get("externalId");
  if (externalId !== undefined && externalId !== null && typeof externalId !== "string")
    throw scimErrors.invalidValue("externalId must be a string.");
  const members = get("members") ?? [];
  if (!Array.isArray(members)) throw scimErrors.invalidValue("members must be a list of {value: <user id>}.");
  const ids = members.map((member: unknown) => {
    const value = (member as { value?: unknown } | null)?.value;
    if (typeof value !== "string") throw scimErrors.invalidValue("Each member needs a value: a user's id.");
    return value;
  });
  return { displayName: displayName.trim(), externalId: externalId ?? null, members: [...new Set(ids)] };
}

const withMembers = {
  members: { include: { user: { select: { id: true, userName: true } } }, orderBy: { scimUserId: "asc" } },
} as const satisfies Prisma.ScimGroupInclude;

type GroupRow = Prisma.ScimGroupGetPayload<{ include: typeof withMembers }>;

function groupResource(row: GroupRow, { members = true }: { members?: boolean } = {}) {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    displayName: row.displayName,
    ...(members
      ? {
          members: row.members.map(({ user }) => ({
            value: user.id,
            display: user.userName,
            $ref: resourceUrl("Users", user.id),
          })),
        }
      : {}),
    meta: meta("Group", row.id, row),
  };
}

function memberValue(member: unknown): { value: unknown } {
  return { value: (member as { value?: unknown } | null)?.value };
}

/** `excludedAttributes=members` (Entra ID asks so when it looks a group up). */
function membersWanted(params: URLSearchParams): boolean {
  const excluded = (params.get("excludedAttributes") ?? "").split(",").map((a) => a.trim().toLowerCase());
  return !excluded.includes("members");
}

async function findGroup(tx: Tx, teamId: string, id: string) {
  const row = await tx.scimGroup.findFirst({ where: { id, teamId }, include: withMembers });
  if (!row) throw scimErrors.notFound("Group", id);
  return row;
}

async function assertNameFree(tx: Tx, teamId: string, displayName: string, except?: string) {
  const taken = await tx.scimGroup.findFirst({
    where: { teamId, displayName, id: except ? { not: except } : undefined },
    select: { id: true },
  });
  if (taken) throw scimErrors.uniqueness(`A group named ${displayName} exists in this team.`);
}

/** Writes the group and its members, then sets the role of everyone whose groups changed. */
async function saveGroup(
  tx: Tx,
  team: ScimTeam,
  id: string | null,
  input: GroupInput,
  notices: OwnersNotice[],
): Promise<string> {
  await assertNameFree(tx, team.teamId, input.displayName, id ?? undefined);
  const found = await tx.scimUser.findMany({
    where: { teamId: team.teamId, id: { in: input.members } },
    select: { id: true },
  });
  const missing = input.members.filter((m) => !found.some((f) => f.id === m));
  if (missing.length) throw scimErrors.invalidValue(`No user ${missing[0]} in this team.`);
  let before: string[] = [];
  let renamed = true;
  if (id) {
    const current = await tx.scimGroup.findUniqueOrThrow({ where: { id }, include: { members: true } });
    before = current.members.map((m) => m.scimUserId);
    renamed = current.displayName !== input.displayName || current.externalId !== input.externalId;
    await tx.scimGroup.update({
      where: { id },
      data: { displayName: input.displayName, externalId: input.externalId },
    });
  } else {
    id = (
      await tx.scimGroup.create({
        data: { teamId: team.teamId, displayName: input.displayName, externalId: input.externalId },
      })
    ).id;
  }
  const groupId = id;
  const added = input.members.filter((m) => !before.includes(m));
  const removed = before.filter((m) => !input.members.includes(m));
  if (removed.length) await tx.scimGroupMember.deleteMany({ where: { groupId, scimUserId: { in: removed } } });
  if (added.length) await tx.scimGroupMember.createMany({ data: added.map((scimUserId) => ({ groupId, scimUserId })) });
  const touched = renamed ? [...new Set([...before, ...input.members])] : [...added, ...removed];
  for (const scimUserId of touched) await syncMembership(tx, team, scimUserId, notices);
  return groupId;
}

export async function createGroup(team: ScimTeam, body: Record<string, unknown>) {
  const input = groupInput(body);
  return provisioning(team.teamId, async (tx, notices) => {
    const id = await saveGroup(tx, team, null, input, notices);
    return groupResource(await findGroup(tx, team.teamId, id));
  });
}

export async function getGroup(team: ScimTeam, id: string, params: URLSearchParams) {
  const db = await getDb();
  return groupResource(await findGroup(db, team.teamId, id), { members: membersWanted(params) });
}

/** GET /scim/v2/Groups: `filter` displayName eq / externalId eq, paged by startIndex and count. */
export async function listGroups(team: ScimTeam, params: URLSearchParams) {
  const at = page(params);
  const filter = params.get("filter");
  const where: Prisma.ScimGroupWhereInput = { teamId: team.teamId };
  if (filter) {
    const { attribute, value } = equalityFilter(filter, ["displayName", "externalId"]);
    if (attribute === "displayName") where.displayName = value;
    else where.externalId = value;
  }
  const db = await getDb();
  const [total, rows] = await Promise.all([
    db.scimGroup.count({ where }),
    at.take === 0
      ? Promise.resolve([])
      : db.scimGroup.findMany({
          where,
          include: withMembers,
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
          skip: at.skip,
          take: at.take,
        }),
  ]);
  const members = membersWanted(params);
  return listResponse(
    rows.map((row) => groupResource(row, { members })),
    total,
    at,
  );
}

export async function replaceGroup(team: ScimTeam, id: string, body: Record<string, unknown>) {
  const input = groupInput(body);
  return provisioning(team.teamId, async (tx, notices) => {
    await findGroup(tx, team.teamId, id);
    await saveGroup(tx, team, id, input, notices);
    return groupResource(await findGroup(tx, team.teamId, id));
  });
}

/**
 * PATCH /scim/v2/Groups/{id}: Entra ID adds and removes members with `"op": "Add"` / `"Remove"`, path `members` and a
 * list of {value}; Okta removes with the path `members[value eq "<id>"]` and renames with a value object. All are
 * applied to the group as a resource, and the members it then has are saved.
 */
export async function patchGroup(team: ScimTeam, id: string, body: unknown) {
  // Members are compared by value alone: Entra ID's `{"$ref": null, "value": …}` names the same member as `{value}`.
  const operations = patchOperations(body).map((operation) =>
    operation.path?.toLowerCase() === "members" && Array.isArray(operation.value)
      ? { ...operation, path: "members", value: operation.value.map(memberValue) }
      : operation,
  );
  return provisioning(team.teamId, async (tx, notices) => {
    const current = groupResource(await findGroup(tx, team.teamId, id));
    const resource = {
      schemas: current.schemas,
      displayName: current.displayName,
      ...(current.externalId !== undefined ? { externalId: current.externalId } : {}),
      members: (current.members ?? []).map((m) => ({ value: m.value })),
    };
    await saveGroup(tx, team, id, groupInput(applyPatch(resource, operations)), notices);
    const after = await findGroup(tx, team.teamId, id);
    return groupResource(after);
  });
}

/** DELETE /scim/v2/Groups/{id}: its members lose the role it gave. */
export async function deleteGroup(team: ScimTeam, id: string): Promise<void> {
  await provisioning(team.teamId, async (tx, notices) => {
    const group = await findGroup(tx, team.teamId, id);
    await tx.scimGroup.delete({ where: { id } });
    for (const { scimUserId } of group.members) await syncMembership(tx, team, scimUserId, notices);
  });
}
