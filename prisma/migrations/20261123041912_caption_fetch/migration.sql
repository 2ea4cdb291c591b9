-- CreateTable
CREATE TABLE "CaptionFetch" (
    "key" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "failure" JSONB,

    CONSTRAINT "CaptionFetch_pkey" PRIMARY KEY ("key")
);
