-- A team with members never becomes a person (verbatim_membership_team_is_a_team).
CREATE OR REPLACE TRIGGER "User_team_keeps_its_kind"
BEFORE UPDATE OF "kind" ON "User"
FOR EACH ROW EXECUTE FUNCTION verbatim_membership_team_is_a_team();
