-- Every membership names a team account (verbatim_membership_team_is_a_team).
CREATE OR REPLACE TRIGGER "Membership_team_is_a_team"
BEFORE INSERT OR UPDATE OF "teamId" ON "Membership"
FOR EACH ROW EXECUTE FUNCTION verbatim_membership_team_is_a_team();
