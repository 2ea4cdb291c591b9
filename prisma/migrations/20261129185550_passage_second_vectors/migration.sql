-- A passage read whole by search by meaning's second stage, keyed by its pid (lib/search/second-stage.ts writes them).
CREATE TABLE "PassageSecondVector" (
    "pid" BIGINT NOT NULL,
    "model" TEXT NOT NULL,
    "vector" BYTEA NOT NULL,
    "scale" REAL NOT NULL,

    CONSTRAINT "PassageSecondVector_pkey" PRIMARY KEY ("pid")
);
