-- Turn reminders: when the player to move is reminded that their turn runs out (a third of
-- the turn's time left). NULL: no reminder pending (a bot's turn, a player who acted, one
-- already sent). A process claims a due reminder by setting it back to NULL, so it is sent
-- once whichever process fires it.
ALTER TABLE games ADD COLUMN remind_at DOUBLE PRECISION;
CREATE INDEX games_remind_at ON games (remind_at) WHERE remind_at IS NOT NULL;

-- Where a member wants their turn reminders (/notify): in the game's thread (the default,
-- no row) or by direct message.
CREATE TABLE notify_choices (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    via TEXT NOT NULL CHECK (via IN ('thread', 'dm')),
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
