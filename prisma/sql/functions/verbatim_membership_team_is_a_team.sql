-- A membership's team is a team: a person's own account has no members (its owner acts in it without a row), so a
-- row naming a person as its team, or a team with members becoming a person, is refused by the database itself
-- (triggers "Membership_team_is_a_team" and "User_team_keeps_its_kind").
CREATE OR REPLACE FUNCTION verbatim_membership_team_is_a_team() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'Membership' THEN
    IF NOT EXISTS (SELECT 1 FROM "User" WHERE "id" = NEW."teamId" AND "kind" = 'team') THEN
      RAISE EXCEPTION 'a membership''s team must be a team account (%)', NEW."teamId" USING ERRCODE = 'check_violation';
    END IF;
  ELSIF NEW."kind" <> 'team' AND EXISTS (SELECT 1 FROM "Membership" WHERE "teamId" = NEW."id") THEN
    RAISE EXCEPTION 'a team with members stays a team (%)', NEW."id" USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;
