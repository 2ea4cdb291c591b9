-- CreateTable
CREATE TABLE "PodcastEpisodeTranscript" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "audioUrl" TEXT NOT NULL,
    "transcriptUrl" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "language" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PodcastEpisodeTranscript_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PodcastEpisodeTranscript_userId_videoId_key" ON "PodcastEpisodeTranscript"("userId", "videoId");

-- AddForeignKey
ALTER TABLE "PodcastEpisodeTranscript" ADD CONSTRAINT "PodcastEpisodeTranscript_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
