// "Did you mean" picks the intended word: a judged list of real, common English misspellings (Wikipedia's "Lists
// of common misspellings") against the word meant, over real caption text (test/fixtures/captions: the English
// tracks) and one short hand-written passage that says the words the tracks do not, beside words spelt like them
// (relieve, deceive, desperate, governor, liberty, accumulate, …). Read from the library's passages and from the
// vocabulary probed for visibility alike; at least 90 % right.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captionSegments, parseCaptions, type CaptionFormat } from "@/lib/captions/parse";
import { readCaptionFile } from "@/test/fixtures/captions";
import { createUser, useTestDatabase } from "@/test/app-db";
import { storeTranscript, type Segments } from "@/test/search";
import { SEARCH_CONFIGS } from "@/lib/search/config";
import { searchQuerySchema } from "@/lib/search/schemas";

/** [as typed, as meant]: each a misspelling Wikipedia lists for the word. */
const JUDGED: [string, string][] = [
  ["peopel", "people"],
  ["pepole", "people"],
  ["recieve", "receive"],
  ["definately", "definitely"],
  ["wierd", "weird"],
  ["beleive", "believe"],
  ["enviroment", "environment"],
  ["existance", "existence"],
  ["foriegn", "foreign"],
  ["freind", "friend"],
  ["knowlege", "knowledge"],
  ["succesful", "successful"],
  ["truely", "truly"],
  ["diffrent", "different"],
  ["realy", "really"],
  ["actualy", "actually"],
  ["probaly", "probably"],
  ["intresting", "interesting"],
  ["buisness", "business"],
  ["remeber", "remember"],
  ["beatiful", "beautiful"],
  ["somthing", "something"],
  ["basicly", "basically"],
  ["litterally", "literally"],
  ["anwser", "answer"],
  ["arround", "around"],
  ["finaly", "finally"],
  ["immediatly", "immediately"],
  ["neccessarily", "necessarily"],
  ["oppurtunity", "opportunity"],
  ["experiance", "experience"],
  ["sentance", "sentence"],
  ["acheivement", "achievement"],
  ["perseverence", "perseverance"],
  ["childern", "children"],
  ["seperate", "separate"],
  ["tommorow", "tomorrow"],
  ["goverment", "government"],
  ["neccessary", "necessary"],
  ["calender", "calendar"],
  ["libary", "library"],
  ["accomodate", "accommodate"],
  ["occured", "occurred"],
  ["embarass", "embarrass"],
  ["grammer", "grammar"],
  ["independant", "independent"],
  ["concious", "conscious"],
  ["publically", "publicly"],
  ["refered", "referred"],
  ["occassion", "occasion"],
];

const TRACKS: [string, CaptionFormat][] = [
  ["kyamashiro.grit.en.xml", "transcript"],
  ["t2o2.auto.en.vtt", "vtt"],
  ["sponsor-inference.auto.en.vtt", "vtt"],
  ["ytenglishhub.auto.en.json3", "json3"],
  ["ytenglishhub.cookie-monster.en.srt", "srt"],
];

const HAND_WRITTEN = [
  "Did you receive the letter? It will relieve you, and I would never deceive you about it.",
  "Keep the two piles separate; a desperate clerk mixed them up.",
  "See you tomorrow at the library, beside the shelf on liberty and the one on how debts accumulate.",
  "The government wrote to the governor: it is necessary to mark the calendar before the vote.",
  "The hotel can accommodate forty guests; nothing like that occurred last year.",
  "Do not embarrass him about his grammar; he is independent and conscious of it.",
  "She publicly referred to the occasion, and to the beginning of the story.",
].map((text, i) => ({ start: i * 5, end: i * 5 + 5, text }));

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let reader: string;

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  ctx = await useTestDatabase();
  reader = (await createUser(ctx.db)).id;
  for (const [file, format] of TRACKS) {
    const segments = captionSegments(parseCaptions(readCaptionFile(file), format), "manual") as Segments;
    await storeTranscript(ctx.db, { segments, lang: "en", title: file, userIds: [reader] });
  }
  await storeTranscript(ctx.db, { segments: HAND_WRITTEN, lang: "en", title: "Letters", userIds: [reader] });
});
afterAll(async () => ctx?.teardown());

describe("did you mean", () => {
  for (const small of [true, false]) {
    it(`picks the word meant for at least 90 % of a judged list of real misspellings (${small ? "the library's passages" : "the vocabulary probed"})`, async () => {
      const { didYouMean } = await import("@/lib/search/suggest");
      const scope = { kind: "library" as const, userId: reader };
      // A misspelling English reads as the word meant ("existance" and "existence" are both exist) is found as
      // typed: the search answers the word's moments and asks for no spelling.
      const alike = await ctx.db.$queryRawUnsafe<{ typed: string }[]>(
        `SELECT j->>0 AS typed FROM jsonb_array_elements($1::jsonb) AS j
          WHERE to_tsvector('english', j->>0) = to_tsvector('english', j->>1)`,
        JSON.stringify(JUDGED),
      );
      const foundAsTyped = new Set(alike.map((row) => row.typed));
      const wrong: string[] = [];
      for (const [typed, meant] of JUDGED) {
        const got = await didYouMean(ctx.db, scope, typed, SEARCH_CONFIGS, false, { scope, small });
        if (got !== meant && !(got === null && foundAsTyped.has(typed)))
          wrong.push(`${typed} → ${got} (meant ${meant})`);
      }
      const right = JUDGED.length - wrong.length;
      const corrected = JUDGED.length - foundAsTyped.size;
      const score = `${right}/${JUDGED.length} right (${corrected - wrong.length}/${corrected} by a suggestion, ${foundAsTyped.size} found as typed); wrong: ${wrong.join(", ")}`;
      expect(JUDGED.length).toBeGreaterThanOrEqual(30);
      expect(corrected).toBeGreaterThanOrEqual(30);
      expect(right / JUDGED.length, score).toBeGreaterThanOrEqual(0.9);
      expect((corrected - wrong.length) / corrected, score).toBeGreaterThanOrEqual(0.9);
      for (const [typed, meant] of [
        ["peopel", "people"],
        ["recieve", "receive"],
        ["pepole", "people"],
      ])
        expect(
          wrong.some((w) => w.startsWith(`${typed} `)),
          `${typed} → ${meant}`,
        ).toBe(false);
    });
  }

  it("is what the search answers when a misspelling finds nothing", async () => {
    const { searchLibrary } = await import("@/lib/search/search-moments");
    const answer = await searchLibrary(reader, searchQuerySchema.parse({ q: "pepole" }));
    expect(answer.results).toEqual([]);
    expect(answer.did_you_mean).toBe("people");
  });
});
