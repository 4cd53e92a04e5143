-- Every table a tournament match played on: a best of 3 plays each game at a table of its
-- own, and tournament_matches.game_id holds only the current one; the earlier ones are
-- still the match's (its Rematch button is refused, /tournament result finds the match).
CREATE TABLE tournament_match_games (
    game_id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES tournament_matches (id)
);
CREATE INDEX tournament_match_games_match ON tournament_match_games (match_id);
INSERT INTO tournament_match_games (game_id, match_id)
    SELECT game_id, id FROM tournament_matches WHERE game_id IS NOT NULL;
