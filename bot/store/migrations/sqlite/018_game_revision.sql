-- A change that leaves the turn's version as it is (a spectator came or went) still needs
-- a compare-and-set: revision counts those changes within one version. Every save that
-- bumps the version sets it back to 0 and expects the one it read; a spectator's change
-- adds 1 and expects the one it read, so of two at the same moment one is refused (and
-- tried again on the fresh row), never lost.
ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
