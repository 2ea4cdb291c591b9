-- AlterTable
ALTER TABLE "DeviceCode" ADD COLUMN     "clientLabel" TEXT,
ADD COLUMN     "decidedAt" TIMESTAMP(3),
ADD COLUMN     "requestAddress" TEXT,
ADD COLUMN     "userAgent" TEXT;

-- AlterTable
ALTER TABLE "OAuthClient" ADD COLUMN     "clientUri" TEXT,
ADD COLUMN     "grantTypes" TEXT[] DEFAULT ARRAY['authorization_code', 'refresh_token']::TEXT[],
ADD COLUMN     "scope" TEXT,
ADD COLUMN     "secretHash" TEXT,
ADD COLUMN     "tokenEndpointAuthMethod" TEXT NOT NULL DEFAULT 'none';

-- AlterTable
ALTER TABLE "OAuthToken" ADD COLUMN     "codeId" TEXT,
ADD COLUMN     "deviceLabel" TEXT,
ADD COLUMN     "familyId" TEXT,
ADD COLUMN     "lastUsedAt" TIMESTAMP(3),
ADD COLUMN     "refreshUsedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "OAuthToken_familyId_idx" ON "OAuthToken"("familyId");

-- CreateIndex
CREATE INDEX "OAuthToken_codeId_idx" ON "OAuthToken"("codeId");
