-- Tournament sign-up windows and check-in (issue 25.1/25.2): the tournament starts by
-- itself at starts_at (NULL: when the organiser presses Start); from checkin_at members
-- check in, and at the start those who did not are dropped with their fee refunded.
ALTER TABLE tournaments ADD COLUMN starts_at DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN checkin_at DOUBLE PRECISION;
-- 1 once the sign-up message was redrawn with its Check in button (claimed, so once).
ALTER TABLE tournaments ADD COLUMN checkin_shown BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournament_entries ADD COLUMN checked_in_at DOUBLE PRECISION;
