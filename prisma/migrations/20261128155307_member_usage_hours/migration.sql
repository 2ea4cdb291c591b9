-- CreateTable
CREATE TABLE "MemberUsageHour" (
    "userId" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "seconds" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "MemberUsageHour_pkey" PRIMARY KEY ("userId","hour","actorId")
);

-- AddForeignKey
ALTER TABLE "MemberUsageHour" ADD CONSTRAINT "MemberUsageHour_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
