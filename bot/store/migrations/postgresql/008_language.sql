-- The language of this server's public game messages (/settings language, Manage Server):
-- a catalogue's tag (de, pt-BR); NULL = the server's Discord locale, then English.
ALTER TABLE guild_settings ADD COLUMN language TEXT
    CHECK (language IS NULL OR length(language) BETWEEN 2 AND 16);
