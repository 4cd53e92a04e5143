-- The role a new lobby on this server calls (Manage Server sets it; NULL = none).
ALTER TABLE guild_settings ADD COLUMN lobby_role_id INTEGER;
