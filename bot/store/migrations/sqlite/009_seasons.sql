-- Seasons: a server's leaderboards that start afresh while the all-time ones go on.
-- A season runs from started_at until ends_at (the date the organiser chose, or the moment
-- the next season started, whichever is first; NULL: until the next one). Whether a season
-- is running is read from the clock, so one ends by itself with no timer to lose in a restart.
CREATE TABLE seasons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    soft_reset INTEGER NOT NULL CHECK (soft_reset IN (0, 1)),
    started_at REAL NOT NULL,
    ends_at REAL,
    started_by INTEGER NOT NULL,
    CHECK (ends_at IS NULL OR ends_at >= started_at)
);
CREATE UNIQUE INDEX seasons_name ON seasons (guild_id, lower(name));
CREATE INDEX seasons_by_start ON seasons (guild_id, started_at);

-- A season's statistics and ratings per member and game key, like player_stats for the
-- server scope, folded in by record_finished_game for the games finished while it ran (and
-- recomputed by rebuild_ratings). A member's first game of a season starts from their
-- all-time server rating then (softened if the season was started with a soft reset). Rows
-- of a finished season are never written again: its final leaderboard.
CREATE TABLE season_stats (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    guild_id INTEGER NOT NULL,
    game_key TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    best_turn INTEGER NOT NULL,
    chips_won INTEGER NOT NULL,
    chips_lost INTEGER NOT NULL,
    chips_net INTEGER NOT NULL,
    streak INTEGER NOT NULL,
    win_rate REAL NOT NULL,
    rated_games INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    ordinal REAL NOT NULL,
    last_game_id INTEGER,
    updated_at REAL NOT NULL,
    PRIMARY KEY (season_id, game_key, user_id)
) WITHOUT ROWID;
CREATE INDEX season_stats_by_rating ON season_stats (season_id, game_key, ordinal DESC, user_id)
    WHERE rated_games > 0;
CREATE INDEX season_stats_by_wins ON season_stats (season_id, game_key, wins DESC, user_id);
CREATE INDEX season_stats_by_win_rate ON season_stats (season_id, game_key, win_rate DESC, user_id)
    WHERE games >= 5;
CREATE INDEX season_stats_by_chips ON season_stats (season_id, game_key, chips_net DESC, user_id);
