-- Tournaments (issue 25): a server's event of one game, its entrants and its matches.
-- State lives here, so a restart or a second process picks up where the first left off.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    kind TEXT NOT NULL,               -- the game kind its matches are tables of
    settings_json TEXT NOT NULL,      -- the tables' settings (variant, rounds, ...)
    game_key TEXT NOT NULL,           -- the leaderboard key: seeding reads its ratings
    format TEXT NOT NULL CHECK (format IN ('swiss', 'elimination', 'round_robin')),
    rounds INTEGER NOT NULL,          -- Swiss: chosen (0: ⌈log2 n⌉ at the start); else set then
    round INTEGER NOT NULL DEFAULT 0, -- the round being played (0: sign-up). Advanced by a
                                      -- compare-and-set on this number, so exactly once
    status TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    posted_round INTEGER NOT NULL DEFAULT 0, -- the last round whose standings were posted
                                      -- (round + 1 once the final ones were)
    message_id INTEGER,                 -- the sign-up message
    fee INTEGER NOT NULL DEFAULT 0 CHECK (fee >= 0), -- chips each entrant puts in the prize pool
    best_of INTEGER NOT NULL DEFAULT 1 CHECK (best_of IN (1, 3)),       -- games a match is won in
    final_best_of INTEGER NOT NULL DEFAULT 1 CHECK (final_best_of IN (1, 3)), -- a bracket's final
    prize TEXT NOT NULL DEFAULT 'winner' CHECK (prize IN ('winner', 'top2', 'top3')),
    created_by INTEGER NOT NULL,
    created_at REAL NOT NULL,
    started_at REAL,
    finished_at REAL
);
CREATE INDEX tournaments_guild ON tournaments (guild_id, status, id);

CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    rating REAL,                      -- the seeding rating (ordinal), fixed at the start
    seed INTEGER,                     -- 1 = the best, fixed at the start
    removed_at REAL,                -- removed by the organiser: the rest forfeited
    joined_at REAL NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

-- One match of a round. b_id NULL is a bye (done when paired). A match is opened as an
-- ordinary table once: status 'pending' -> 'opening' is a compare-and-set; a claim whose
-- process died before the table was linked is taken over after a grace period.
CREATE TABLE tournament_matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL,
    slot INTEGER NOT NULL,
    a_id INTEGER NOT NULL,
    b_id INTEGER,
    status TEXT NOT NULL CHECK (status IN ('pending', 'opening', 'playing', 'done')),
    game_id INTEGER UNIQUE REFERENCES games (id), -- the table of its current game
    a_wins INTEGER NOT NULL DEFAULT 0,
    b_wins INTEGER NOT NULL DEFAULT 0,
    games INTEGER NOT NULL DEFAULT 0,      -- games played (a best of 3 plays on after a draw)
    winner_id INTEGER,                -- NULL when done: a draw (or no result)
    claimed_at REAL,                 -- when a process claimed it to open its table
    finished_at REAL,
    UNIQUE (tournament_id, round, slot)
);
CREATE INDEX tournament_matches_open ON tournament_matches (status) WHERE status <> 'done';

-- An entry fee held for the prize pool, like a table's stake (escrows): it leaves 'held'
-- exactly once (refunded, or paid into the prizes), so a retried payout pays nothing more.
-- Its ledger rows are kind escrow/refund/payout with no game and reason 'tournament:<id>'.
CREATE TABLE tournament_fees (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    amount INTEGER NOT NULL CHECK (amount > 0),
    status TEXT NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'refunded', 'paid')),
    created_at REAL NOT NULL,
    settled_at REAL
);
CREATE UNIQUE INDEX tournament_fees_one_held ON tournament_fees (tournament_id, user_id)
    WHERE status = 'held';
CREATE TRIGGER tournament_fees_settle_once BEFORE UPDATE ON tournament_fees
WHEN OLD.status <> 'held' OR NEW.amount <> OLD.amount OR NEW.user_id <> OLD.user_id
    OR NEW.tournament_id <> OLD.tournament_id OR NEW.guild_id <> OLD.guild_id
BEGIN
    SELECT RAISE(ABORT, 'fee already settled or changed');
END;
CREATE TRIGGER tournament_fees_no_delete BEFORE DELETE ON tournament_fees
BEGIN
    SELECT RAISE(ABORT, 'fees are never deleted');
END;

-- The organiser's changes (a removed player, an overridden result): who, when, what.
CREATE TABLE tournament_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    actor_id INTEGER NOT NULL,
    action TEXT NOT NULL,
    detail_json TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX tournament_log_by_tournament ON tournament_log (tournament_id, id);
