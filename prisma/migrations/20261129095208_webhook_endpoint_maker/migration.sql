-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "createdById" TEXT;

-- A person's own endpoints are theirs; a team's were registered by the person its trail names for the URL
-- (webhook.created, written just after the endpoint) or, with no such line, by no one known.
UPDATE "WebhookEndpoint" e SET "createdById" = e."userId"
  WHERE EXISTS (SELECT 1 FROM "User" u WHERE u."id" = e."userId" AND u."kind" = 'person');
UPDATE "WebhookEndpoint" e SET "createdById" = (
    SELECT a."actorId" FROM "AuditEvent" a
    WHERE a."teamId" = e."userId" AND a."action" = 'webhook.created' AND a."target" = e."url"
      AND a."createdAt" >= e."createdAt"
    ORDER BY a."createdAt" ASC LIMIT 1)
  WHERE EXISTS (SELECT 1 FROM "User" u WHERE u."id" = e."userId" AND u."kind" = 'team');
