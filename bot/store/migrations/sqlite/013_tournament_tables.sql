-- Tournaments at tables of three or more (issue 25.1): seats a table; a match of more than
-- two lists its players (players_json, in seat order; a_id and b_id are its first two) and,
-- once done, their places (places_json: [[user, place], ...], 1 the best, a shared place a tie).
ALTER TABLE tournaments ADD COLUMN seats INTEGER NOT NULL DEFAULT 2;
ALTER TABLE tournament_matches ADD COLUMN players_json TEXT;
ALTER TABLE tournament_matches ADD COLUMN places_json TEXT;
