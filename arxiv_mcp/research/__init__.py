"""Work over papers already fetched: BibTeX, category trends, local (offline) search.

Contract: these modules take records from `upstream` and the cache and never schedule
upstream requests of their own, except `trends`, which pages the API through the shared
client.
"""
