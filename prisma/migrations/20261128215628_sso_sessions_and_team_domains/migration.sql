-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "confirmedAt" TIMESTAMP(3),
ADD COLUMN     "method" TEXT;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "requireSso" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "TeamDomain" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "role" "TeamRole" NOT NULL DEFAULT 'member',
    "verifiedDomain" TEXT,
    "verifiedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TeamDomain_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TeamDomain_verifiedDomain_key" ON "TeamDomain"("verifiedDomain");

-- CreateIndex
CREATE UNIQUE INDEX "TeamDomain_teamId_domain_key" ON "TeamDomain"("teamId", "domain");

-- AddForeignKey
ALTER TABLE "TeamDomain" ADD CONSTRAINT "TeamDomain_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
