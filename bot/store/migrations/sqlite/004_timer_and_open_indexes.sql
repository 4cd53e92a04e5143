-- Timers are read by their deadline, not by scanning every live row at every tick.
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
-- Opening a table counts a server's live tables and finds the host's last table without
-- reading the server's whole history.
CREATE INDEX games_guild_live ON games (guild_id, status) WHERE status IN ('lobby', 'running');
CREATE INDEX games_host ON games (guild_id, host_id, created_at);
CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
-- A deleted game message is reposted: its table is found by the message.
CREATE INDEX games_message ON games (message_id) WHERE message_id IS NOT NULL;
-- The version of each game that its Discord message shows (written in batches by the
-- publisher): after a restart only the games whose message is behind are redrawn.
ALTER TABLE games ADD COLUMN shown_version INTEGER;
UPDATE games SET shown_version = version;
