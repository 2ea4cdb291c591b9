import { getDb } from "@/lib/db/client";
import type { Prisma, ScimUser } from "@/lib/generated/prisma/client";
import { scimErrors } from "@/lib/scim/http";
import { equalityFilter } from "@/lib/scim/filter";
import { provisioning, syncMembership, type ScimTeam, type Tx } from "@/lib/scim/membership";
import { applyPatch } from "@/lib/scim/patch";
import { listResponse, meta, page, patchOperations, USER_SCHEMA } from "@/lib/scim/resources";
import type { OwnersNotice } from "@/lib/membership/role-loss";

// SCIM Users (RFC 7643 §4.1): a person as the team's identity provider sees them. The resource is kept as sent
// (name, emails, displayName, extensions) and answered back; userName, externalId and active are columns, since they
// are filtered on or act. The person is found, or made, by e-mail when the user is created, and stays linked.

const MAX_USERNAME = 320;
/** Attributes the server sets or never keeps: not stored among the resource's other attributes. */
const NOT_STORED = new Set(["schemas", "id", "meta", "username", "externalid", "active", "password", "groups"]);

interface UserInput {
  userName: string;
  externalId: string | null;
  active: boolean;
  attributes: Record<string, unknown>;
  schemas: string[];
}

/** Entra ID sends booleans as "True" and "False" (its documented SCIM quirk); JSON's are taken as they are. */
export function scimBoolean(value: unknown, name: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === "true";
  throw scimErrors.invalidValue(`${name} must be true or false.`);
}

function userInput(body: Record<string, unknown>): UserInput {
  const entries = Object.entries(body);
  const get = (name: string) => entries.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  const userName = get("userName");
  if (typeof userName !== "string" || !userName.trim() || userName.length > MAX_USERNAME)
    throw scimErrors.invalidValue(`userName is required: a string of 1 to ${MAX_USERNAME} characters.`);
  const externalId = get("externalId");
  if (externalId !== undefined && externalId !== null && typeof externalId !== "string")
    throw scimErrors.invalidValue("externalId must be a string.");
  const active = get("active");
  const schemas = Array.isArray(body.schemas) ? body.schemas.filter((s): s is string => typeof s === "string") : [];
  return {
    userName: userName.trim(),
    externalId: externalId ?? null,
    active: active === undefined || active === null ? true : scimBoolean(active, "active"),
    attributes: Object.fromEntries(entries.filter(([key]) => !NOT_STORED.has(key.toLowerCase()))),
    schemas: schemas.includes(USER_SCHEMA) ? schemas : [USER_SCHEMA, ...schemas],
  };
}

/** The e-mail that names the person: the primary one, else a work one, else the first, else a userName like one. */
function personEmail(input: UserInput): string {
  const emails = Array.isArray(input.attributes.emails) ? (input.attributes.emails as unknown[]) : [];
  const listed = emails.filter(
    (e): e is { value: string; primary?: unknown; type?: unknown } =>
      typeof e === "object" && e !== null && typeof (e as { value?: unknown }).value === "string",
  );
  const chosen =
    listed.find((e) => e.primary === true || e.primary === "True" || e.primary === "true") ??
    listed.find((e) => e.type === "work") ??
    listed[0];
  const email = (chosen?.value ?? input.userName).trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
    throw scimErrors.invalidValue("The user needs an e-mail address: in emails, or as the userName.");
  return email;
}

function displayName(input: UserInput): string | null {
  const { displayName, name } = input.attributes as { displayName?: unknown; name?: Record<string, unknown> };
  if (typeof displayName === "string" && displayName.trim()) return displayName.trim().slice(0, 200);
  const formatted =
    name?.formatted ?? [name?.givenName, name?.familyName].filter((p) => typeof p === "string").join(" ");
  return typeof formatted === "string" && formatted.trim() ? formatted.trim().slice(0, 200) : null;
}

export function userResource(row: ScimUser & { groups?: { group: { id: string; displayName: string } }[] }) {
  const attributes = row.attributes as Record<string, unknown>;
  const { schemas, ...rest } = attributes as { schemas?: string[] };
  return {
    schemas: schemas ?? [USER_SCHEMA],
    id: row.id,
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    userName: row.userName,
    ...rest,
    active: row.active,
    ...(row.groups
      ? { groups: row.groups.map(({ group }) => ({ value: group.id, display: group.displayName, type: "direct" })) }
      : {}),
    meta: meta("User", row.id, row),
  };
}

const withGroups = { groups: { include: { group: { select: { id: true, displayName: true } } } } } as const;

async function findUser(tx: Tx, teamId: string, id: string) {
  const row = await tx.scimUser.findFirst({ where: { id, teamId }, include: withGroups });
  if (!row) throw scimErrors.notFound("User", id);
  return row;
}

async function assertUnique(tx: Tx, teamId: string, input: UserInput, personId: string | null, except?: string) {
  const taken = await tx.scimUser.findFirst({
    where: {
      teamId,
      id: except ? { not: except } : undefined,
      OR: [{ userNameKey: input.userName.toLowerCase() }, ...(personId ? [{ userId: personId }] : [])],
    },
    select: { userNameKey: true },
  });
  if (!taken) return;
  throw scimErrors.uniqueness(
    taken.userNameKey === input.userName.toLowerCase()
      ? `userName ${input.userName} is taken in this team.`
      : "Another user of this team is this person (the same e-mail address).",
  );
}

function stored(input: UserInput): Prisma.InputJsonValue {
  return { schemas: input.schemas, ...input.attributes } as Prisma.InputJsonValue;
}

/** POST /scim/v2/Users: the person (found or made by e-mail) becomes a member, unless created inactive. */
export async function createUser(team: ScimTeam, body: Record<string, unknown>) {
  const input = userInput(body);
  const email = personEmail(input);
  return provisioning(team.teamId, async (tx, notices) => {
    const existing = await tx.user.findUnique({ where: { email }, select: { id: true, kind: true } });
    if (existing && existing.kind !== "person")
      throw scimErrors.invalidValue(`${email} is not a person's address here.`);
    await assertUnique(tx, team.teamId, input, existing?.id ?? null);
    const person =
      existing ?? (await tx.user.create({ data: { email, name: displayName(input) }, select: { id: true } }));
    const row = await tx.scimUser.create({
      data: {
        teamId: team.teamId,
        userId: person.id,
        userName: input.userName,
        userNameKey: input.userName.toLowerCase(),
        externalId: input.externalId,
        active: input.active,
        attributes: stored(input),
      },
    });
    await syncMembership(tx, team, row.id, notices);
    return userResource(await findUser(tx, team.teamId, row.id));
  });
}

export async function getUser(team: ScimTeam, id: string) {
  const db = await getDb();
  return userResource(await findUser(db, team.teamId, id));
}

/** GET /scim/v2/Users: `filter` userName eq / externalId eq, paged by startIndex and count. */
export async function listUsers(team: ScimTeam, params: URLSearchParams) {
  const at = page(params);
  const filter = params.get("filter");
  const where: Prisma.ScimUserWhereInput = { teamId: team.teamId };
  if (filter) {
    const { attribute, value } = equalityFilter(filter, ["userName", "externalId"]);
    if (attribute === "userName") where.userNameKey = value.toLowerCase();
    else where.externalId = value;
  }
  const db = await getDb();
  const [total, rows] = await Promise.all([
    db.scimUser.count({ where }),
    at.take === 0
      ? Promise.resolve([])
      : db.scimUser.findMany({
          where,
          include: withGroups,
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
          skip: at.skip,
          take: at.take,
        }),
  ]);
  return listResponse(rows.map(userResource), total, at);
}

async function saveUser(tx: Tx, team: ScimTeam, id: string, input: UserInput, notices: OwnersNotice[]) {
  await assertUnique(tx, team.teamId, input, null, id);
  await tx.scimUser.update({
    where: { id },
    data: {
      userName: input.userName,
      userNameKey: input.userName.toLowerCase(),
      externalId: input.externalId,
      active: input.active,
      attributes: stored(input),
    },
  });
  await syncMembership(tx, team, id, notices);
  return userResource(await findUser(tx, team.teamId, id));
}

/** PUT /scim/v2/Users/{id}: the resource replaced; `active: false` ends the membership at once. */
export async function replaceUser(team: ScimTeam, id: string, body: Record<string, unknown>) {
  const input = userInput(body);
  return provisioning(team.teamId, async (tx, notices) => {
    await findUser(tx, team.teamId, id);
    return saveUser(tx, team, id, input, notices);
  });
}

/**
 * Entra ID's PATCH: `"op": "Replace"`, `"path": "active"`, `"value": "False"`; Okta's: `"op": "replace"`,
 * `"value": {"active": false}`. Both are read as RFC 7644 §3.5.2 operations, the strings made booleans first.
 */
function normalizedOperations(body: unknown) {
  return patchOperations(body).map((operation) => {
    let { value } = operation;
    if (operation.path?.toLowerCase() === "active" && value !== undefined) value = scimBoolean(value, "active");
    if (!operation.path && typeof value === "object" && value !== null && !Array.isArray(value))
      value = Object.fromEntries(
        Object.entries(value).map(([key, v]) => [key, key.toLowerCase() === "active" ? scimBoolean(v, "active") : v]),
      );
    return { ...operation, value };
  });
}

/** PATCH /scim/v2/Users/{id}: the operations applied to the stored resource, then saved as a PUT would be. */
export async function patchUser(team: ScimTeam, id: string, body: unknown) {
  const operations = normalizedOperations(body);
  return provisioning(team.teamId, async (tx, notices) => {
    const current = await findUser(tx, team.teamId, id);
    const { meta: _meta, groups: _groups, id: _id, ...resource } = userResource(current);
    return saveUser(tx, team, id, userInput(applyPatch(resource, operations)), notices);
  });
}

/** DELETE /scim/v2/Users/{id}: no longer a member (at once), and the SCIM user is gone. */
export async function deleteUser(team: ScimTeam, id: string): Promise<void> {
  await provisioning(team.teamId, async (tx, notices) => {
    await findUser(tx, team.teamId, id);
    await syncMembership(tx, team, id, notices, { remove: true });
    await tx.scimUser.delete({ where: { id } });
  });
}
