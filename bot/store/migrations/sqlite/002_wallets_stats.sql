-- Wallets, the chip ledger, stake escrows, per-game statistics and OpenSkill ratings.

-- One wallet per member per server. balance always equals the sum of that member's ledger
-- deltas: both change in the same transaction, and the CHECK makes an overdraft impossible
-- even if a code path forgot its conditional UPDATE.
CREATE TABLE wallets (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    balance INTEGER NOT NULL CHECK (balance >= 0),
    daily_day INTEGER,               -- UTC day number (unix seconds // 86400) of the last /daily
    created_at REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- Append-only: every chip movement, with its sign fixed by its kind.
--   start/daily/grant/take create or destroy chips (the only kinds that may);
--   pay_in/pay_out, escrow/refund/payout move chips between wallets and pots.
CREATE TABLE ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    delta INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN
        ('start', 'daily', 'grant', 'take', 'pay_in', 'pay_out', 'escrow', 'refund', 'payout')),
    reason TEXT,
    game_id INTEGER,
    actor_id INTEGER,                -- who caused it when not the member (admin, payer)
    at REAL NOT NULL,
    CHECK (
        (kind IN ('start', 'daily', 'grant', 'pay_in', 'refund', 'payout') AND delta > 0)
        OR (kind IN ('take', 'pay_out', 'escrow') AND delta < 0)
    )
);
CREATE INDEX ledger_member ON ledger (guild_id, user_id, id);
CREATE INDEX ledger_game ON ledger (game_id, kind) WHERE game_id IS NOT NULL;
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger is append-only');
END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger is append-only');
END;

-- A stake held for a seat. It leaves 'held' exactly once (refunded or paid), which is what
-- makes a retried payout or refund a no-op. A member who leaves and rejoins a lobby gets a
-- new row; at most one row per game and member is held at a time.
CREATE TABLE escrows (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games (id),
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    amount INTEGER NOT NULL CHECK (amount > 0),
    status TEXT NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'refunded', 'paid')),
    created_at REAL NOT NULL,
    settled_at REAL
);
CREATE UNIQUE INDEX escrows_one_held ON escrows (game_id, user_id) WHERE status = 'held';
CREATE INDEX escrows_game ON escrows (game_id, status);
CREATE TRIGGER escrows_settle_once BEFORE UPDATE ON escrows
WHEN OLD.status <> 'held' OR NEW.amount <> OLD.amount OR NEW.user_id <> OLD.user_id
    OR NEW.game_id <> OLD.game_id OR NEW.guild_id <> OLD.guild_id
BEGIN
    SELECT RAISE(ABORT, 'escrow already settled or changed');
END;
CREATE TRIGGER escrows_no_delete BEFORE DELETE ON escrows
BEGIN
    SELECT RAISE(ABORT, 'escrows are never deleted');
END;

-- Statistics and rating per scope, member and game key. scope is the guild id, or 0 for the
-- global scope (every server pooled: one rating per member per game, updated by every game
-- in any server). Maintained incrementally by record_finished_game; rebuild_ratings
-- recomputes it from game_results. ordinal/win_rate/chips_net are stored so each
-- leaderboard sort is an index walk.
CREATE TABLE player_stats (
    scope INTEGER NOT NULL,
    game_key TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    best_turn INTEGER NOT NULL,
    chips_won INTEGER NOT NULL,
    chips_lost INTEGER NOT NULL,
    chips_net INTEGER NOT NULL,
    streak INTEGER NOT NULL,         -- +n: n wins in a row, -n: n games without a win
    win_rate REAL NOT NULL,
    rated_games INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    ordinal REAL NOT NULL,           -- mu - 3 sigma; shown through the display formula
    last_game_id INTEGER,
    updated_at REAL NOT NULL,
    PRIMARY KEY (scope, game_key, user_id)
) WITHOUT ROWID;
-- The rating board lists rated members only and the win-rate board members with 5+ games
-- (stats.WIN_RATE_MIN_GAMES): partial indexes hold exactly those rows, so counting and paging
-- never visit the table. A query must repeat the WHERE term literally to use them.
CREATE INDEX stats_by_rating ON player_stats (scope, game_key, ordinal DESC, user_id)
    WHERE rated_games > 0;
CREATE INDEX stats_by_wins ON player_stats (scope, game_key, wins DESC, user_id);
CREATE INDEX stats_by_win_rate ON player_stats (scope, game_key, win_rate DESC, user_id)
    WHERE games >= 5;
CREATE INDEX stats_by_chips ON player_stats (scope, game_key, chips_net DESC, user_id);
CREATE INDEX stats_by_user ON player_stats (user_id, scope);

-- The rating after each rated game, per scope: for charts and audits.
CREATE TABLE rating_history (
    scope INTEGER NOT NULL,
    game_key TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    game_id INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    ordinal REAL NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (scope, game_key, user_id, game_id)
) WITHOUT ROWID;
CREATE INDEX rating_history_by_time ON rating_history (scope, game_key, user_id, at);

-- Games already folded into player_stats, so recording a game twice changes nothing. seq is
-- the order they were folded in (commit order), which a rebuild replays: two tables finishing
-- at nearly the same moment may commit in the other order than their finish times.
CREATE TABLE recorded_games (
    seq INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL UNIQUE REFERENCES games (id),
    finished_at REAL NOT NULL
);

-- Global leaderboards name a member by their most recently seen name in any server.
CREATE INDEX members_by_user ON members (user_id, updated_at);
