-- A passage's meaning as a vector, keyed by its pid (lib/search/embed-passages.ts writes them).
CREATE TABLE "PassageEmbedding" (
    "pid" BIGINT NOT NULL,
    "model" TEXT NOT NULL,
    "vector" BYTEA NOT NULL,
    "scale" REAL NOT NULL,

    CONSTRAINT "PassageEmbedding_pkey" PRIMARY KEY ("pid")
);
