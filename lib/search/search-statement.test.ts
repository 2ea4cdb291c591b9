import { describe, expect, it } from "vitest";
import { searchPlannerSettings, settingsStatement } from "@/lib/search/planner-settings";
import {
  MARK_END,
  MARK_START,
  matchCondition,
  searchStatement,
  type SearchStatementInput,
} from "@/lib/search/search-statement";

const readings = [
  { query: "'ocean'", configs: ["english", "german"] },
  { query: "'oce'", configs: ["simple"] },
];

const input = (overrides: Partial<SearchStatementInput>): SearchStatementInput => ({
  scope: { kind: "public" },
  readings,
  terms: [
    { id: 7, idf: 2.5, reading: 0 },
    { id: 9, idf: 3.5, reading: 1 },
  ],
  readingTerms: [1, 1],
  plan: { driver: "scope" },
  limit: 11,
  offset: 20,
  perTranscript: 3,
  corrects: false,
  ...overrides,
});

/** A parameter's value as the statements below show it where its placeholder is. */
const shown = (value: unknown) => `⟨${JSON.stringify(value)}⟩`;
/** The statement's text on one line, spaces collapsed, each placeholder replaced by its value, for matching fragments. */
const flat = (statement: { text: string; values: unknown[] }) =>
  statement.text.replace(/\s+/g, " ").replace(/\$(\d+)/g, (_, n: string) => shown(statement.values[Number(n) - 1]));
const OCEAN = shown("'ocean'");

const PUBLISHED = `EXISTS (SELECT 1 FROM "Publication" pub WHERE pub."transcriptId" = p."transcriptId" AND pub."publishedAt" IS NOT NULL AND (CASE WHEN p."editorId" IS NULL THEN NOT EXISTS (SELECT 1 FROM "TranscriptRevision" r WHERE r."userId" = pub."userId" AND r."transcriptId" = p."transcriptId" AND r."indexedAt" IS NOT NULL) ELSE p."editorId" = pub."userId" END))`;

describe("matchCondition", () => {
  it("writes in only the closed list's configuration names", () => {
    expect(() => matchCondition([{ query: "'x'", configs: ["english') OR true --"] }])).toThrow(
      /not a search configuration/,
    );
  });

  it("gives each reading one branch, its configurations written in and its tsquery a parameter", () => {
    const { matches } = matchCondition(readings);

    expect(matches.text).toBe(
      `(p."config" IN ('english', 'german') AND p."tsv" @@ $1::tsquery) OR (p."config" IN ('simple') AND p."tsv" @@ $2::tsquery)`,
    );
    expect(matches.values).toEqual(["'ocean'", "'oce'"]);
  });
});

describe("searchStatement", () => {
  it("scores each passage by its reading's terms: idf times the posting's impact, summed, each value a parameter", () => {
    const statement = searchStatement(input({}));

    const sql = flat(statement);
    expect(statement.text).not.toMatch(/ocean|user-1|HighlightAll/);
    expect(sql).toContain(
      `(SELECT coalesce(sum((${shown([2.5, 3.5])}::float8[])[array_position(${shown([7, 2 ** 32 + 9])}::bigint[], f."reading"::bigint * 4294967296 + sp."termId")] * sp."impact"), 0) FROM "SearchPosting" sp WHERE sp."pid" = f."pid")`,
    );
    expect(sql).toContain(
      `FROM (SELECT DISTINCT ON ("pid") *, CASE WHEN found."config" IN ('english', 'german') THEN 0 WHEN found."config" IN ('simple') THEN 1 END AS "reading" FROM found) AS f`,
    );
    // One term a reading: no proximity part.
    expect(sql).not.toContain("ts_rank_cd");
    expect(sql).toContain(
      `WHERE nth <= ${shown(3)} ORDER BY rank DESC, "pid" DESC LIMIT ${shown(11)} OFFSET ${shown(20)} )`,
    );
    expect(sql).toContain(`ORDER BY m.rank DESC, m."pid" DESC`);
    expect(sql).toContain(`${shown(`HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`)}) AS marked`);
    expect(sql).toContain(`AND (page."editorId" IS NULL OR pub."userId" = page."editorId")`);
    expect(sql).not.toContain(`"Transcription"`);
  });

  it("adds the proximity of a reading of two or more terms, bounded", () => {
    const sql = flat(searchStatement(input({ readingTerms: [2, 1] })));

    expect(sql).toContain(
      `+ CASE WHEN f."config" IN ('english', 'german') THEN 1.5::float8 * ts_rank_cd(f."tsv", ${OCEAN}::tsquery, 32)::float8 ELSE 0 END`,
    );
  });

  it("public, by the scope: the published transcripts, each one's passages looked up by its key", () => {
    const sql = flat(searchStatement(input({})));

    expect(sql).toContain(
      `FROM (SELECT DISTINCT pub."transcriptId" FROM "Publication" pub WHERE pub."publishedAt" IS NOT NULL) s CROSS JOIN LATERAL ( SELECT p.* FROM "SearchPassage" p WHERE p."transcriptId" = s."transcriptId" AND (`,
    );
    expect(sql).toContain(`AND ${PUBLISHED} OFFSET 0) p`);
  });

  it("public, by postings: each term's best postings, its readings' passages, matching and visible, up to keep", () => {
    const statement = searchStatement(
      input({
        plan: {
          driver: "postings",
          exact: true,
          prefix: 64,
          lists: [{ termId: 7, readings: [0, 1], examine: 20000, keep: 63 }],
        },
      }),
    );

    const sql = flat(statement);
    expect(sql).toContain(
      `(SELECT p.* FROM ( SELECT sp."pid", sp."impact" FROM "SearchPosting" sp WHERE sp."termId" = ${shown(7)} ORDER BY sp."impact" DESC, sp."pid" DESC LIMIT ${shown(20000)}) c CROSS JOIN LATERAL (SELECT p.* FROM "SearchPassage" p WHERE p."pid" = c."pid" OFFSET 0) p WHERE p."config" IN ('english', 'german', 'simple') AND (`,
    );
    expect(sql).toContain(`AND ${PUBLISHED} ORDER BY c."impact" DESC, c."pid" DESC LIMIT ${shown(63)})`);
    // Exact: the best `prefix` of the lists' union, by score, are capped and paged.
    expect(sql).toContain(`ORDER BY rank DESC, f."pid" DESC LIMIT ${shown(64)} ), beside AS`);
  });

  it("by postings, with no term any passage holds: no candidate", () => {
    const sql = flat(searchStatement(input({ plan: { driver: "postings", exact: true, prefix: 63, lists: [] } })));

    expect(sql).toContain(`WITH found AS MATERIALIZED ( SELECT p.* FROM "SearchPassage" p WHERE false )`);
  });

  it("a show: only the published episodes of the followed show whose page it is", () => {
    const statement = searchStatement(input({ scope: { kind: "public", show: "the-show-1a2b3c4d" } }));

    expect(statement.text).not.toContain("the-show");
    expect(flat(statement)).toContain(
      `WHERE pub."publishedAt" IS NOT NULL AND EXISTS (SELECT 1 FROM "Follow" f JOIN "FollowItem" i ON i."followId" = f."id" WHERE f."showSlug" = ${shown("the-show-1a2b3c4d")} AND f."userId" = pub."userId" AND i."status" = 'done' AND i."transcriptId" = pub."transcriptId")) s`,
    );
  });

  it("platform and language filters look up the transcript, each value a parameter", () => {
    const statement = searchStatement(input({ platform: "youtube", lang: "en-GB" }));

    expect(statement.text).not.toMatch(/youtube|en-GB/);
    expect(flat(statement)).toContain(
      `AND EXISTS (SELECT 1 FROM "Transcript" t WHERE t."id" = p."transcriptId" AND t."platform" = ${shown("youtube")} AND lower(t."lang") = lower(${shown("en-GB")}))`,
    );
  });

  it("library without corrections: the caller's done entries' transcripts, their own passages", () => {
    const statement = searchStatement(input({ scope: { kind: "library", userId: "user-1" } }));

    const USER = shown("user-1");
    const sql = flat(statement);
    expect(sql).toContain(
      `FROM (SELECT DISTINCT h."transcriptId" FROM "Transcription" h WHERE h."userId" = ${USER} AND h."state" = 'done' AND h."transcriptId" IS NOT NULL) s`,
    );
    expect(sql).toContain(`FROM "TranscriptPassage" tp)`);
    expect(sql).toContain(`AND p."editorId" IS NULL OFFSET 0) p`);
    expect(sql).toContain(`pub."userId" = ${USER} AND pub."publishedAt" IS NOT NULL LIMIT 1) AS slug`);
    expect(sql).not.toContain(`FROM "SearchPassage"`);
  });

  it("library with corrections, by postings: the caller's correction's passages instead of the transcript's", () => {
    const sql = flat(
      searchStatement(
        input({
          scope: { kind: "library", userId: "user-1" },
          corrects: true,
          plan: {
            driver: "postings",
            exact: false,
            prefix: 1050,
            lists: [{ termId: 7, readings: [0], examine: 10, keep: 5 }],
          },
        }),
      ),
    );
    const USER = shown("user-1");

    expect(sql).toContain(`CROSS JOIN LATERAL (SELECT p.* FROM "SearchPassage" p WHERE p."pid" = c."pid" OFFSET 0) p`);
    expect(sql).toContain(
      `AND EXISTS (SELECT 1 FROM "Transcription" h WHERE h."transcriptId" = p."transcriptId" AND h."userId" = ${USER} AND h."state" = 'done') AND (CASE WHEN p."editorId" IS NULL THEN NOT EXISTS (SELECT 1 FROM "TranscriptRevision" r WHERE r."userId" = ${USER} AND r."transcriptId" = p."transcriptId" AND r."indexedAt" IS NOT NULL) ELSE p."editorId" = ${USER} END)`,
    );
    // Not exact: every candidate is ranked.
    expect(sql).toContain(`ORDER BY rank DESC, f."pid" DESC ), beside AS`);
  });
});

describe("searchPlannerSettings", () => {
  it("runs serially, without JIT, under the timeout", () => {
    expect(searchPlannerSettings({ timeoutMs: 4000 })).toEqual({
      statement_timeout: "4000",
      max_parallel_workers_per_gather: "0",
      jit: "off",
    });
  });

  it("is set for the transaction only, each name and value a parameter", () => {
    const statement = settingsStatement(searchPlannerSettings({ timeoutMs: 2500 }));
    expect(statement.text).toBe("SELECT set_config($1, $2, true), set_config($3, $4, true), set_config($5, $6, true)");
    expect(statement.values).toEqual([
      "statement_timeout",
      "2500",
      "max_parallel_workers_per_gather",
      "0",
      "jit",
      "off",
    ]);
  });
});
