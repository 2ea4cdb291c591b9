// The role matrix's fixtures (lib/http/roles.int.test.ts): for each kind of thing a path can name, a maker of one.
import { createUser, type useTestDatabase } from "./app-db";
import { seedTranscript } from "./publishing";

type Db = Awaited<ReturnType<typeof useTestDatabase>>["db"];
type Ids = Record<string, string>;

let seq = 0;
const nextVideoId = () => `matrix${(++seq).toString().padStart(5, "0")}`;

/**
 * What each path's parameters name, by the path's first part (an {id} names a different thing under each): a maker of
 * one fresh thing of that kind in `accountId`'s library (a connected app is `personId`'s own).
 */
export function roleFixtureMakers(db: Db): Record<string, (accountId: string, personId: string) => Promise<Ids>> {
  return {
    // Team management may delete the team or hand it to another owner: it gets a team of its own, the same people in
    // the same roles, so the matrix's team is never changed under it.
    "/v1/teams": async (accountId) => {
      const videoId = nextVideoId();
      const managed = await db.user.create({
        data: { kind: "team", name: "Managed", slug: `managed-${videoId}-${Math.random().toString(36).slice(2, 8)}` },
      });
      const people = await db.membership.findMany({
        where: { teamId: accountId },
        select: { userId: true, role: true },
      });
      await db.membership.createMany({ data: people.map((m) => ({ ...m, teamId: managed.id })) });
      const member = await createUser(db);
      await db.membership.create({ data: { teamId: managed.id, userId: member.id, role: "viewer" } });
      const invitation = await db.teamInvitation.create({
        data: {
          teamId: managed.id,
          email: `invited-${videoId}@example.test`,
          role: "member",
          tokenHash: `hash-${videoId}-${Math.random()}`,
          expiresAt: new Date(Date.now() + 3600_000),
        },
      });
      const teamKey = await db.teamKey.create({
        data: {
          teamId: managed.id,
          name: "matrix",
          hash: `team-key-${videoId}-${Math.random()}`,
          prefix: "vbt_tk_matrix",
          scopes: ["read"],
          createdById: people[0].userId,
        },
      });
      const domain = await db.teamDomain.create({
        data: { teamId: managed.id, domain: `matrix-${Math.random().toString(36).slice(2, 10)}.test`, token: "matrix" },
      });
      return {
        team_id: managed.id,
        user_id: member.id,
        invitation_id: invitation.id,
        key_id: teamKey.id,
        domain: domain.domain,
      };
    },
    "/v1/transcripts": async (accountId) => {
      const transcript = await seedTranscript(db, accountId, { videoId: nextVideoId() });
      const revision = await db.transcriptRevision.create({
        data: {
          userId: accountId,
          transcriptId: transcript.id,
          segments: [{ start: 0, end: 1, text: "Edited." }],
          sizeBytes: 10,
        },
      });
      return { id: transcript.id, revision_id: revision.id };
    },
    "/v1/me/transcriptions": async (accountId) => {
      const videoId = nextVideoId();
      await seedTranscript(db, accountId, { videoId });
      const entry = await db.transcription.findFirstOrThrow({ where: { userId: accountId, videoId } });
      return { id: entry.id };
    },
    "/v1/follows": async (accountId) => {
      const follow = await db.follow.create({
        data: {
          userId: accountId,
          url: `https://feeds.example.com/${nextVideoId()}.xml`,
          kind: "podcast",
          nextCheckAt: null,
        },
      });
      return { id: follow.id };
    },
    "/v1/alerts": async (accountId) => {
      const alert = await db.alert.create({
        data: {
          userId: accountId,
          name: "matrix",
          query: "matrix",
          scopeKind: "library",
          feedToken: `feed-${nextVideoId()}-${Math.random().toString(36).slice(2)}`,
        },
      });
      return { id: alert.id };
    },
    "/v1/import": async (accountId) => {
      const batch = await db.importBatch.create({
        data: { userId: accountId, sourceUrl: `https://feeds.example.com/${nextVideoId()}.xml`, status: "done" },
      });
      await db.importItem.create({
        data: {
          batchId: batch.id,
          guid: "https://example.com/episodes/42",
          title: "Episode",
          audioUrl: "https://example.com/e.mp3",
          status: "failed",
        },
      });
      return { batch_id: batch.id };
    },
    "/v1/batches": async (accountId) => {
      const linkBatch = await db.batch.create({ data: { userId: accountId, status: "partial", total: 1 } });
      await db.batchItem.create({
        data: { batchId: linkBatch.id, line: 1, url: "https://youtu.be/Ye8mB6VsUHw", status: "failed", note: "Gone." },
      });
      return { batch_id: linkBatch.id };
    },
    "/v1/jobs": async (accountId) => {
      const job = await db.job.create({ data: { userId: accountId, input: {}, status: "done" } });
      return { job_id: job.id };
    },
    "/v1/me/webhooks": async (accountId) => {
      const { sealSecret } = await import("@/lib/auth/secret-box");
      const endpoint = await db.webhookEndpoint.create({
        data: {
          userId: accountId,
          url: "https://hooks.example.com/verbatim",
          eventTypes: ["transcript.completed"],
          secretCipher: sealSecret("webhook", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
        },
      });
      const delivery = await db.webhookDelivery.create({
        data: {
          userId: accountId,
          endpointId: endpoint.id,
          url: endpoint.url,
          messageId: `msg_${nextVideoId()}`,
          eventType: "transcript.completed",
          payload: {},
          status: "failed",
          nextAttemptAt: null,
        },
      });
      return { id: endpoint.id, delivery_id: delivery.id };
    },
    "/v1/exports/destinations": async (accountId) => {
      const destination = await db.exportDestination.create({
        data: { userId: accountId, kind: "folder", name: "matrix", target: "matrix" },
      });
      return { id: destination.id };
    },
    "/v1/publish": async (accountId) => {
      const videoId = nextVideoId();
      const transcript = await seedTranscript(db, accountId, { videoId });
      const publication = await db.publication.create({
        data: { slug: `pub-${videoId}`, userId: accountId, transcriptId: transcript.id, publishedAt: new Date() },
      });
      return { slug: publication.slug };
    },
    "/v1/me/connections": async (_accountId, personId) => {
      const videoId = nextVideoId();
      const connection = await db.oAuthToken.create({
        data: {
          accessTokenHash: `a-${videoId}-${Math.random()}`,
          refreshTokenHash: `r-${videoId}-${Math.random()}`,
          userId: personId,
          scope: "api",
          resource: "api",
          accessExpiresAt: new Date(Date.now() + 3600_000),
          familyId: `family-${videoId}-${Math.random()}`,
          deviceLabel: "matrix",
        },
      });
      return { id: connection.familyId! };
    },
  };
}
