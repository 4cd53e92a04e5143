-- The role whose members may run tournaments here besides Manage Server (NULL = none).
ALTER TABLE guild_settings ADD COLUMN organiser_role_id BIGINT;
