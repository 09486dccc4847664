"""Everything that talks to the network: arXiv's API and site, ar5iv, Semantic Scholar.

Contract: every request goes through `http.HttpClient`, which books a slot with the shared
`rate_limiter` (one request per interval per host group, across processes on one home),
never follows a redirect to an unconfigured host, and bounds size and time. Callers get
bytes and statuses, or an `errors.UpstreamError` subclass. Nothing here reads or writes the
cache's papers: the rate limiter only shares the cache's file lock (`cache.filelock`) to keep
its schedule across processes.
"""
