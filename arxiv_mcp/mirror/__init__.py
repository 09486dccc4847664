"""The local mirror of the categories a user follows, harvested from arXiv's OAI-PMH.

Contract: off unless `ARXIV_MCP_MIRROR` names categories or archives (or the command line
asks); one sqlite3 database in the home (`store.py`), beside the cache and never evicted by
it; every OAI request goes through the shared `HttpClient`, after interactive calls
(`harvest.py`); every page is stored with its resumption token in one transaction, so a
killed harvest loses at most that page and stores nothing twice. Questions are answered
(`source.py`, by `query.py`'s SQL) only when the mirror holds the whole answer: inside
mirrored sets whose first harvest is complete, and no later than their last sync; each
answer says `source: "mirror"` and `as_of`. The reference resolver's seam is
`MirrorSource.papers(ids)` (a batch of versionless ids) and `MirrorSource.search(query, ...)`.
"""
