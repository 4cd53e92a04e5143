-- The web companion (bot/web, docs/operations.md): a server's pages are off until an admin
-- turns them on (/settings web on). web_id is the server's opaque id in the pages' addresses
-- (never its Discord id), kept when the pages are turned off and on again.
ALTER TABLE guild_settings ADD COLUMN web_public INTEGER NOT NULL DEFAULT 0
    CHECK (web_public IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN web_id TEXT
    CHECK (web_id IS NULL OR length(web_id) BETWEEN 6 AND 32);
CREATE UNIQUE INDEX guild_settings_web_id ON guild_settings (web_id);
-- A player's opaque id in a server's pages, given the first time a page names them: a
-- member's Discord id never appears in a page or an address.
CREATE TABLE web_players (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    public_id TEXT NOT NULL UNIQUE CHECK (length(public_id) BETWEEN 6 AND 32),
    PRIMARY KEY (guild_id, user_id)
);
