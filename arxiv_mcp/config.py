"""Every setting, read once from the environment and validated.

An invalid value stops start-up with one line naming the variable and what it accepts,
so a typo in a client's `env` block is found at once rather than at the first request.
Also how a path is shown to the model (`display_path`), below both the service (the cache
home in cache_stats) and the text renderings that show paths.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

from .tool_groups import TOOL_GROUPS

N = TypeVar("N", int, float)

ARXIV_MIN_INTERVAL_S = 3.0
"""arXiv's terms of use: at most one request every three seconds."""
MAX_INTERVAL_S = 600.0
"""Spacing beyond this is a mistake, not politeness (every second call would outwait its
deadline), and the shared limiter treats a slot booked more than an hour ahead as left over
from before a reboot, which would turn the spacing off."""
ARXIV_DOMAINS = ("arxiv.org", "ar5iv.org")
"""Hosts under these (any case, a trailing dot, any port) are arXiv's and get its spacing."""


PDF_ENGINES = ("auto", "pypdf", "pdfium")
TOOL_GROUP_NAMES = (*TOOL_GROUPS, "all")
"""ARXIV_MCP_TOOLS / --tools: which tools a server exposes (TOOL_GROUPS lists them)."""
MAX_TIMEOUT_S = 600.0
"""Per-request network timeout: beyond ten minutes a stalled upstream is not worth waiting for
(and 1e10 overflowed the socket layer, failing every upstream call)."""
MAX_DEADLINE_S = 3600.0
"""A whole tool call: an hour is far past any client's own patience."""
MAX_TTL_S = 10 * 365 * 86400.0
"""Ten years: longer lifetimes overflow date arithmetic and mean "forever" anyway."""


class ConfigError(ValueError):
    """A setting is invalid; the message is the one line shown at start-up."""


@dataclass(frozen=True)
class Config:
    home: Path
    max_papers: int = 200
    max_disk_mb: int = 2048
    meta_ttl_s: float = 86400.0
    session_ttl_s: float = 604800.0
    search_ttl_s: float = 300.0
    api_url: str = "https://export.arxiv.org/api/query"
    site_url: str = "https://arxiv.org"
    ar5iv_url: str = "https://ar5iv.labs.arxiv.org"
    s2_url: str = "https://api.semanticscholar.org/graph/v1"
    rss_url: str = "https://rss.arxiv.org/rss"
    """Base of arXiv's announcement feeds (`/{category}`): arXiv's, so spaced like the API."""
    min_interval_s: float = ARXIV_MIN_INTERVAL_S
    timeout_s: float = 30.0
    deadline_s: float = 120.0
    max_download_mb: int = 100
    pdf_engine: str = "auto"
    """auto (pypdfium2 when the `fast` extra is installed, else pypdf), pypdf, or pdfium."""
    s2_api_key: str | None = field(default=None, repr=False)
    http_tokens: tuple[str, ...] = field(default=(), repr=False)
    """Bearer tokens, one per HTTP client; when set every HTTP request must carry one of them.
    Required to serve beyond loopback."""
    tools: tuple[str, ...] = ("all",)
    """The tool groups exposed (TOOL_GROUP_NAMES)."""
    contact: str | None = None
    """An e-mail or URL for the User-Agent, as arXiv asks of API clients (ARXIV_MCP_CONTACT)."""
    mirror: tuple[str, ...] = ()
    """Categories and archives mirrored through OAI-PMH (ARXIV_MCP_MIRROR); empty: no mirror."""
    oai_url: str = "https://oaipmh.arxiv.org/oai"

    @property
    def max_bytes(self) -> int:
        return self.max_disk_mb * 2**20

    @property
    def max_download_bytes(self) -> int:
        return self.max_download_mb * 2**20

    def arxiv_hosts(self) -> set[str]:
        """Hosts whose requests share arXiv's spacing (API, site, ar5iv, OAI-PMH and the feeds)."""
        hosts = (self.api_url, self.site_url, self.ar5iv_url, self.oai_url, self.rss_url)
        return {urlsplit(u).netloc.lower() for u in hosts}


def display_path(path: Path | str) -> str:
    """Paths under the user's home are shown as ~/... in text: what a model reads (and may
    repeat) never shows the user name. Structured fields keep the real path."""
    text = os.path.normpath(str(path))  # native separators: C:\\Users\\ada\\... on Windows
    home = os.path.normpath(os.path.expanduser("~"))
    root = home.rstrip(os.sep)
    if root and home != os.path.splitdrive(home)[0] + os.sep and (text == home or text.startswith(root + os.sep)):
        return "~" + text[len(root) :]
    return text


def is_arxiv_host(url: str) -> bool:
    """Whether `url` points at arXiv, however the host is spelt (`ARXIV.org.`, `ar5iv.org:443`)."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    return any(host == domain or host.endswith("." + domain) for domain in ARXIV_DOMAINS)


def _number(
    env: Mapping[str, str],
    name: str,
    default: N,
    kind: Callable[[str], N],
    minimum: N,
    accepts: str,
    maximum: float = float("inf"),
) -> N:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    text = raw.strip()
    if not text.isascii() or "_" in text:  # int() and float() take "1_000" and other scripts' digits
        raise ConfigError(f"{name}={raw!r} is invalid: expected {accepts}")
    try:
        value = kind(text)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is invalid: expected {accepts}") from None
    if value != value or not minimum <= value <= maximum:
        raise ConfigError(f"{name}={raw!r} is invalid: expected {accepts}")
    return value


def _home(env: Mapping[str, str]) -> Path:
    """ARXIV_MCP_HOME as an absolute directory path: `~` and `~user` expanded (an unknown user
    is refused, not left as a directory named `~nosuchuser`), a relative path taken from the
    working directory, and no control characters (a NUL fails every later file call)."""
    raw = env.get("ARXIV_MCP_HOME", "").strip()
    if not raw:
        return Path.home() / ".arxiv-mcp"
    invalid = f"ARXIV_MCP_HOME={raw!r} is invalid: expected a directory path"
    if not raw.isprintable():
        raise ConfigError(f"{invalid} (it holds a control character)")
    try:
        home = Path(raw).expanduser().absolute()
    except RuntimeError:  # pathlib's "Could not determine home directory"
        user = raw[1:].split("/", 1)[0]
        raise ConfigError(f"{invalid}: there is no user {user!r} to expand ~{user} for; give a full path") from None
    if str(home).startswith("~"):
        raise ConfigError(f"{invalid}: '~' could not be expanded here; give a full path")
    if home.exists() and not home.is_dir():
        raise ConfigError(f"{invalid} (it names a file)")
    return home


def _seconds(low: float, high: float) -> str:
    return f"a number of seconds from {low:g} to {high:g}"


def _url(env: Mapping[str, str], name: str, default: str) -> str:
    """A URL the HTTP client can use: http(s), a host, a port in range, no spaces or control
    characters (which `requests` would send, or choke on, only at the first request)."""
    raw = env.get(name, "").strip() or default
    invalid = ConfigError(f"{name}={raw!r} is invalid: expected an http(s) URL such as {default}")
    if any(c.isspace() or not c.isprintable() for c in raw):
        raise invalid
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018 - parsing the port is the check (out of range or not a number)
    except ValueError:
        raise invalid from None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.port == 0:
        raise invalid
    return raw.rstrip("/")


def _secret(env: Mapping[str, str], name: str, min_length: int = 1) -> str | None:
    """A key or token, which goes into an HTTP header: visible ASCII only, since a newline,
    space or control character would break the header (and `requests` would put the value in
    its error). The value is never part of the message."""
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if not all("!" <= ch <= "~" for ch in raw):
        raise ConfigError(
            f"{name} is invalid: it contains a space, line break, control or non-ASCII character "
            "(value not shown); set it to the key alone"
        )
    if len(raw) < min_length:
        raise ConfigError(f"{name} is invalid: use at least {min_length} characters (value not shown)")
    return raw


MAX_TOKENS = 64
"""HTTP clients (tokens) one server serves: each may hold 32 sessions, room kept for all."""


def _tokens(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """Comma-separated tokens, each 16 or more visible characters: each names one HTTP client."""
    parts = [part.strip() for part in env.get(name, "").split(",")]
    if not any(parts):
        return ()
    if not all(parts):
        raise ConfigError(f"{name} is invalid: an empty token between commas (value not shown)")
    if len(parts) > MAX_TOKENS:
        # each token may hold 32 HTTP sessions, and the server keeps room for all of them
        raise ConfigError(f"{name} is invalid: {len(parts)} tokens, at most {MAX_TOKENS} (value not shown)")
    return tuple(dict.fromkeys(_secret({name: part}, name, min_length=16) or "" for part in parts))


def tool_groups(raw: str, name: str = "ARXIV_MCP_TOOLS") -> tuple[str, ...]:
    """Comma- or space-separated group names; empty means all. An unknown name stops start-up."""
    groups = tuple(dict.fromkeys(part.lower() for part in raw.replace(",", " ").split()))
    unknown = [g for g in groups if g not in TOOL_GROUP_NAMES]
    if unknown:
        raise ConfigError(
            f"{name}={raw!r} is invalid: {unknown[0]!r} is not a tool group; expected some of "
            f"{', '.join(TOOL_GROUP_NAMES)}, comma-separated"
        )
    return groups or ("all",)


def _contact(env: Mapping[str, str]) -> str | None:
    """An e-mail address or an http(s) URL, sent in the User-Agent: one header-safe word."""
    raw = env.get("ARXIV_MCP_CONTACT", "").strip()
    if not raw:
        return None
    mail = "@" in raw and "." in raw.rsplit("@", 1)[1]
    web = raw.lower().startswith(("http://", "https://")) and "." in raw
    if not (mail or web) or not all("!" <= ch <= "~" for ch in raw) or any(c in raw for c in "();"):
        raise ConfigError(
            f"ARXIV_MCP_CONTACT={raw!r} is invalid: expected an e-mail address or an http(s) URL "
            "(ASCII, no spaces), e.g. you@example.org"
        )
    return raw


def mirror_names(raw: str, name: str = "ARXIV_MCP_MIRROR") -> tuple[str, ...]:
    """Comma- or space-separated categories (cs.LG) or archives (hep-th, math), as the taxonomy
    spells them; an unknown one stops start-up with one line naming it (and, from
    `categories`, the closest names). Known names are checked against the bundled table's
    ids alone: start-up need not import the taxonomy module for them."""
    known = _taxonomy_names()
    out: list[str] = []
    for part in raw.replace(",", " ").split():
        canonical = known.get(part.lower())
        if canonical is None:
            from .categories import get_category
            from .errors import InvalidInput

            try:
                get_category(part)
            except InvalidInput as exc:
                raise ConfigError(
                    f"{name}={raw!r} is invalid: {part!r} is not an arXiv category or archive ({exc})"
                ) from None
            raise ConfigError(f"{name}={raw!r} is invalid: {part!r} is not an arXiv category or archive")
        out.append(canonical)
    return tuple(dict.fromkeys(out))


def _taxonomy_names() -> dict[str, str]:
    """Every category id and archive of the bundled taxonomy, by its lower-case spelling."""
    table = (Path(__file__).parent / "categories.tsv").read_text(encoding="utf-8")
    ids = [line.split("\t", 1)[0] for line in table.splitlines() if line and not line.startswith("#")]
    return {n.lower(): n for n in [*ids, *(i.split(".", 1)[0] for i in ids)]}


def check_mirror_interval(config: Config, name: str = "ARXIV_MCP_MIRROR") -> None:
    """Harvesting arXiv's OAI-PMH keeps arXiv's 3 s, whatever the other hosts are."""
    if config.min_interval_s < ARXIV_MIN_INTERVAL_S and is_arxiv_host(config.oai_url):
        raise ConfigError(
            f"ARXIV_MCP_MIN_INTERVAL_S={config.min_interval_s:g} is invalid with {name}: arXiv asks for at "
            f"least 3 seconds between requests, and ARXIV_MCP_OAI_URL={config.oai_url} is arXiv's"
        )


def check_pdf_engine(engine: str) -> None:
    """pdfium by name needs pypdfium2 (the `fast` extra); say so at start-up, not at the first PDF."""
    if engine == "pdfium" and importlib.util.find_spec("pypdfium2") is None:
        raise ConfigError(
            "ARXIV_MCP_PDF_ENGINE=pdfium is invalid here: pypdfium2 is not installed; install it "
            "(the package's `fast` extra) or set ARXIV_MCP_PDF_ENGINE to auto or pypdf"
        )


def check_port(port: int) -> None:
    if not 1 <= port <= 65535:
        raise ConfigError(f"--port {port} is invalid: expected a TCP port from 1 to 65535")


def load(env: Mapping[str, str] | None = None) -> Config:
    """Build the configuration from `env` (default: the process environment)."""
    env = os.environ if env is None else env
    home = _home(env)
    urls = {
        "api_url": _url(env, "ARXIV_MCP_API_URL", Config.api_url),
        "site_url": _url(env, "ARXIV_MCP_SITE_URL", Config.site_url),
        "ar5iv_url": _url(env, "ARXIV_MCP_AR5IV_URL", Config.ar5iv_url),
        "s2_url": _url(env, "ARXIV_MCP_S2_URL", Config.s2_url),
        "rss_url": _url(env, "ARXIV_MCP_RSS_URL", Config.rss_url),
    }
    interval = _number(
        env,
        "ARXIV_MCP_MIN_INTERVAL_S",
        ARXIV_MIN_INTERVAL_S,
        float,
        0.0,
        f"a number of seconds from 0 to {MAX_INTERVAL_S:g}",
        MAX_INTERVAL_S,
    )
    arxiv_names = {
        "api_url": "ARXIV_MCP_API_URL",
        "site_url": "ARXIV_MCP_SITE_URL",
        "ar5iv_url": "ARXIV_MCP_AR5IV_URL",
        "rss_url": "ARXIV_MCP_RSS_URL",
    }
    at_arxiv = [f"{name}={urls[key]}" for key, name in arxiv_names.items() if is_arxiv_host(urls[key])]
    if interval < ARXIV_MIN_INTERVAL_S and at_arxiv:
        # name them: a mirror set up for the API and site alone still has ar5iv's default
        raise ConfigError(
            f"ARXIV_MCP_MIN_INTERVAL_S={interval:g} is invalid: arXiv asks for at least 3 seconds "
            f"between requests; values below 3 are allowed only when no arXiv host is configured "
            f"(still arXiv's: {', '.join(at_arxiv)})"
        )
    engine = env.get("ARXIV_MCP_PDF_ENGINE", "").strip().lower() or "auto"
    if engine not in PDF_ENGINES:
        raise ConfigError(f"ARXIV_MCP_PDF_ENGINE={engine!r} is invalid: expected one of {', '.join(PDF_ENGINES)}")
    check_pdf_engine(engine)
    mirror = mirror_names(env["ARXIV_MCP_MIRROR"]) if env.get("ARXIV_MCP_MIRROR", "").strip() else ()
    oai_url = _url(env, "ARXIV_MCP_OAI_URL", Config.oai_url)
    config = Config(
        home=home,
        max_papers=_number(env, "ARXIV_MCP_MAX_PAPERS", 200, int, 1, "a whole number from 1 to 1000000", 10**6),
        max_disk_mb=_number(
            env, "ARXIV_MCP_MAX_DISK_MB", 2048, int, 1, "a whole number of MB from 1 to 16777216", 2**24
        ),
        meta_ttl_s=_number(env, "ARXIV_MCP_META_TTL_S", 86400.0, float, 0.0, _seconds(0, MAX_TTL_S), MAX_TTL_S),
        session_ttl_s=_number(env, "ARXIV_MCP_SESSION_TTL_S", 604800.0, float, 1.0, _seconds(1, MAX_TTL_S), MAX_TTL_S),
        search_ttl_s=_number(env, "ARXIV_MCP_SEARCH_TTL_S", 300.0, float, 0.0, _seconds(0, MAX_TTL_S), MAX_TTL_S),
        min_interval_s=interval,
        timeout_s=_number(env, "ARXIV_MCP_TIMEOUT_S", 30.0, float, 0.1, _seconds(0.1, MAX_TIMEOUT_S), MAX_TIMEOUT_S),
        deadline_s=_number(env, "ARXIV_MCP_DEADLINE_S", 120.0, float, 1.0, _seconds(1, MAX_DEADLINE_S), MAX_DEADLINE_S),
        max_download_mb=_number(
            env, "ARXIV_MCP_MAX_DOWNLOAD_MB", 100, int, 1, "a whole number of MB from 1 to 4096", 4096
        ),
        pdf_engine=engine,
        s2_api_key=_secret(env, "SEMANTIC_SCHOLAR_API_KEY"),
        http_tokens=_tokens(env, "ARXIV_MCP_HTTP_TOKEN"),
        tools=tool_groups(env.get("ARXIV_MCP_TOOLS", "")),
        contact=_contact(env),
        mirror=mirror,
        oai_url=oai_url,
        **urls,
    )
    if mirror:
        check_mirror_interval(config)
    return config
