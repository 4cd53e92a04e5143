-- The rematch lobby a finished game opened (its Rematch button): set once, by a
-- compare-and-set (``WHERE rematch_id IS NULL``), so two presses, in one process or two,
-- open one lobby.
ALTER TABLE games ADD COLUMN rematch_id BIGINT;
