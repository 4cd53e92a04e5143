-- The board game's coach (docs/board-rules.md, "Suggest and Review"): a member who asked
-- for a suggested move in a game; such a game is not rated (its stats still count).
ALTER TABLE game_results ADD COLUMN coached INTEGER NOT NULL DEFAULT 0 CHECK (coached IN (0, 1));
-- Whether members may ask for suggested moves on this server (/settings suggestions).
ALTER TABLE guild_settings ADD COLUMN suggestions INTEGER NOT NULL DEFAULT 1
    CHECK (suggestions IN (0, 1));
