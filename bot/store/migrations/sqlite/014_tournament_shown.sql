-- How many of a tournament's matches its sign-up message (its live standings once it runs)
-- shows as done: when more are, one process redraws it (claimed by a compare-and-set).
ALTER TABLE tournaments ADD COLUMN shown_done INTEGER NOT NULL DEFAULT 0;
