-- The request signing secret keeps its predecessor for a day after a rotation, as endpoints do.
ALTER TABLE "WebhookRequestSecret" ADD COLUMN "previousSecretCipher" TEXT,
ADD COLUMN "secretRotatedAt" TIMESTAMP(3);
