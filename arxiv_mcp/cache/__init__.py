"""The on-disk cache: tiers per paper version, a journaled JSON index, sessions and pins,
and short-lived answers (`answers.py`: searches, trends, Semantic Scholar pages).

Contract: a file is written whole (temp, fsync, rename) before the index names it; every
change happens under the home's file lock, after catching up on other processes' journal
lines; eviction is least-recently-used by count and then bytes, pinned papers exempt, and
nothing outside the home is ever named. A warm read may be proved current without the lock
(`warm.py`: two stats, of the journal and of the file read). Only `store.Cache` is used from
outside, with the proof types its answers carry (`warm.Proof`, `warm.TextOrigin`).
"""
