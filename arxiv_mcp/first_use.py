"""The service, built on first use: start-up answers `initialize` without importing it.

No `mcp` here. `ServiceOnFirstUse` stands for the ArxivService until a tool, resource or
completion asks it for anything; then it builds the one service (once, under a lock: tools run
in worker threads) and forwards to it. The service's modules (the cache, readers, upstream
clients: most of arxiv-mcp) are imported then, not before `initialize` is answered; and the
service builds its readers, upstream clients and library on the first call that needs each
(`service_parts._Part`), so a cache-only tool imports only the cache.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from .config import Config

if TYPE_CHECKING:
    from .service import ArxivService


class ServiceOnFirstUse:
    """Stands for the ArxivService, built on the first attribute asked of it. The server has
    checked the cache home by then, as the service's cache would."""

    def __init__(self, config: Config) -> None:
        self.config = config  # as the service's own: reading it builds nothing
        self.built: ArxivService | None = None
        self.building = threading.Lock()

    def __getattr__(self, name: str) -> Any:  # only names the above are not
        service = self.built
        if service is None:
            with self.building:
                if self.built is None:
                    from .service import ArxivService

                    self.built = ArxivService(self.config)
                service = self.built
        return getattr(service, name)
