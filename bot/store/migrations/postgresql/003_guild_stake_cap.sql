-- A server's own cap on table stakes (Manage Server sets it; NULL = the bot's MAX_STAKE).
ALTER TABLE guild_settings ADD COLUMN max_stake BIGINT CHECK (max_stake IS NULL OR max_stake >= 0);
