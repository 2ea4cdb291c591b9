-- Episodes answered from the publisher's own transcript were stored without a title (the file names none);
-- their feed's item did name them. Give each untitled podcast transcript the title of a followed or imported
-- item it was made for, and the show's name as its channel, without fetching anything again.

-- Followed items name their transcript.
UPDATE "Transcript" t
SET "title" = fi."title"
FROM "FollowItem" fi
WHERE fi."transcriptId" = t."id"
  AND t."platform" = 'podcast'
  AND (t."title" IS NULL OR btrim(t."title") = '')
  AND btrim(fi."title") <> '';

UPDATE "Transcript" t
SET "channel" = f."title"
FROM "FollowItem" fi
JOIN "Follow" f ON f."id" = fi."followId"
WHERE fi."transcriptId" = t."id"
  AND t."platform" = 'podcast'
  AND (t."channel" IS NULL OR btrim(t."channel") = '')
  AND btrim(coalesce(f."title", '')) <> '';

-- Imported items name their audio: a podcast source's id is the first 16 hex digits of the SHA-256 of its
-- URL without the fragment (lib/sources/parse.ts). The earliest item wins where several name one episode.
UPDATE "Transcript" t
SET "title" = named."title", "channel" = coalesce(nullif(btrim(t."channel"), ''), named."show")
FROM (
  SELECT DISTINCT ON (vid) vid, "title", "show"
  FROM (
    SELECT left(encode(sha256(convert_to(split_part(ii."audioUrl", '#', 1), 'UTF8')), 'hex'), 16) AS vid,
           ii."title", b."title" AS "show", b."createdAt"
    FROM "ImportItem" ii
    JOIN "ImportBatch" b ON b."id" = ii."batchId"
    WHERE ii."status" = 'done' AND btrim(ii."title") <> ''
  ) items
  ORDER BY vid, "createdAt"
) named
WHERE t."platform" = 'podcast'
  AND t."videoId" = named.vid
  AND (t."title" IS NULL OR btrim(t."title") = '');
