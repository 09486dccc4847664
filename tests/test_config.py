import sys

import pytest

from arxiv_mcp.config import ConfigError, load
from tests import platforms


def test_defaults(tmp_path):
    cfg = load({"ARXIV_MCP_HOME": str(tmp_path)})
    assert cfg.home == tmp_path
    assert (cfg.max_papers, cfg.max_disk_mb, cfg.min_interval_s) == (200, 2048, 3.0)
    assert cfg.api_url == "https://export.arxiv.org/api/query"
    assert cfg.meta_ttl_s == 86400 and cfg.session_ttl_s == 604800


@pytest.mark.parametrize(
    "name, value",
    [
        ("ARXIV_MCP_MAX_PAPERS", "0"),
        ("ARXIV_MCP_MAX_PAPERS", "many"),
        ("ARXIV_MCP_MAX_DISK_MB", "-5"),
        ("ARXIV_MCP_META_TTL_S", "nan"),
        ("ARXIV_MCP_SESSION_TTL_S", "0"),
        ("ARXIV_MCP_API_URL", "ftp://x"),
        ("ARXIV_MCP_SITE_URL", "not a url"),
        ("ARXIV_MCP_MIN_INTERVAL_S", "-1"),
        ("ARXIV_MCP_TIMEOUT_S", "1e10"),
        ("ARXIV_MCP_DEADLINE_S", "1e10"),
        ("ARXIV_MCP_TIMEOUT_S", "inf"),
        ("ARXIV_MCP_META_TTL_S", "1e300"),
        ("ARXIV_MCP_SEARCH_TTL_S", "-0.5"),
        ("ARXIV_MCP_MAX_PAPERS", "1_000"),
        ("ARXIV_MCP_MAX_PAPERS", "\u0661\u0662"),
        ("ARXIV_MCP_MAX_DISK_MB", "99999999999999999999"),
        ("ARXIV_MCP_MAX_DOWNLOAD_MB", "100000"),
        ("ARXIV_MCP_HOME", "~nosuchuser-arxiv-mcp/x"),
        ("ARXIV_MCP_HOME", "/tmp/a\x00b"),
    ],
)
def test_invalid_value_names_the_variable_in_one_line(name, value):
    with pytest.raises(ConfigError) as err:
        load({name: value})
    message = str(err.value)
    assert name in message and "\n" not in message and "expected" in message


def test_interval_below_three_refused_while_an_arxiv_host_is_configured():
    with pytest.raises(ConfigError) as err:
        load({"ARXIV_MCP_MIN_INTERVAL_S": "1"})
    assert "ARXIV_MCP_MIN_INTERVAL_S" in str(err.value)
    with pytest.raises(ConfigError) as err:
        load(
            {
                "ARXIV_MCP_MIN_INTERVAL_S": "0.5",
                "ARXIV_MCP_API_URL": "http://127.0.0.1:1/api/query",
                "ARXIV_MCP_SITE_URL": "http://127.0.0.1:1",
                "ARXIV_MCP_RSS_URL": "http://127.0.0.1:1/rss",
            }
        )
    # ar5iv still points at arXiv: the line names it, so the fix is plain
    assert str(err.value).endswith("(still arXiv's: ARXIV_MCP_AR5IV_URL=https://ar5iv.labs.arxiv.org)")


def test_interval_below_three_allowed_for_a_local_mirror():
    cfg = load(
        {
            "ARXIV_MCP_MIN_INTERVAL_S": "0",
            "ARXIV_MCP_API_URL": "http://127.0.0.1:1/api/query",
            "ARXIV_MCP_SITE_URL": "http://127.0.0.1:1",
            "ARXIV_MCP_AR5IV_URL": "http://127.0.0.1:1/ar5iv",
            "ARXIV_MCP_RSS_URL": "http://127.0.0.1:1/rss",
        }
    )
    assert cfg.min_interval_s == 0


def test_api_key_is_not_in_repr():
    cfg = load({"SEMANTIC_SCHOLAR_API_KEY": "sekrit-key"})
    assert cfg.s2_api_key == "sekrit-key" and "sekrit" not in repr(cfg)


def test_pdf_engine_is_validated():
    assert load({}).pdf_engine == "auto"
    assert load({"ARXIV_MCP_PDF_ENGINE": " PyPDF "}).pdf_engine == "pypdf"
    with pytest.raises(ConfigError) as err:
        load({"ARXIV_MCP_PDF_ENGINE": "mupdf"})
    assert "ARXIV_MCP_PDF_ENGINE" in str(err.value)


@pytest.mark.parametrize("value", ["601", "3601", "86400", "1e9"])
def test_interval_has_an_upper_bound(value):
    with pytest.raises(ConfigError) as err:
        load({"ARXIV_MCP_MIN_INTERVAL_S": value})
    assert "ARXIV_MCP_MIN_INTERVAL_S" in str(err.value) and "600" in str(err.value)
    assert load({"ARXIV_MCP_MIN_INTERVAL_S": "600"}).min_interval_s == 600


LOCAL = {
    "ARXIV_MCP_API_URL": "http://127.0.0.1:1/api/query",
    "ARXIV_MCP_SITE_URL": "http://127.0.0.1:1",
    "ARXIV_MCP_AR5IV_URL": "http://127.0.0.1:1/ar5iv",
    "ARXIV_MCP_RSS_URL": "http://127.0.0.1:1/rss",
}


@pytest.mark.parametrize(
    "name, url",
    [
        ("ARXIV_MCP_SITE_URL", "https://arxiv.org./"),
        ("ARXIV_MCP_SITE_URL", "https://ARXIV.ORG"),
        ("ARXIV_MCP_SITE_URL", "https://arxiv.org:443"),
        ("ARXIV_MCP_API_URL", "http://Export.ArXiv.org.:8080/api/query"),
        ("ARXIV_MCP_AR5IV_URL", "https://ar5iv.org"),
        ("ARXIV_MCP_AR5IV_URL", "https://ar5iv.labs.arxiv.org."),
        ("ARXIV_MCP_AR5IV_URL", "https://AR5IV.org:8443/"),
        ("ARXIV_MCP_RSS_URL", "https://RSS.arxiv.org./rss"),
    ],
)
def test_every_spelling_of_an_arxiv_host_keeps_the_three_seconds(name, url):
    with pytest.raises(ConfigError) as err:
        load({**LOCAL, name: url, "ARXIV_MCP_MIN_INTERVAL_S": "1"})
    assert "ARXIV_MCP_MIN_INTERVAL_S" in str(err.value)
    assert load({**LOCAL, name: url}).min_interval_s == 3.0


@pytest.mark.parametrize(
    "url",
    [
        "http://[::1",
        "http://[::1/api",
        "http://127.0.0.1:99999",
        "http://127.0.0.1:0",
        "http://127.0.0.1:port",
        "http://exa mple.org",
        "http://example.org/a b",
        "http://example.org/\tx",
        "http://:8080/api",
        "https://",
    ],
)
@pytest.mark.parametrize("name", ["ARXIV_MCP_API_URL", "ARXIV_MCP_SITE_URL", "ARXIV_MCP_AR5IV_URL", "ARXIV_MCP_S2_URL"])
def test_every_url_is_checked_at_start_up(name, url):
    with pytest.raises(ConfigError) as err:
        load({name: url})
    message = str(err.value)
    assert message.startswith(name + "=") and "\n" not in message and "expected" in message


def test_good_urls_still_pass():
    cfg = load({"ARXIV_MCP_API_URL": "http://[::1]:8080/api/query", "ARXIV_MCP_SITE_URL": "https://arxiv.org/"})
    assert cfg.api_url == "http://[::1]:8080/api/query" and cfg.site_url == "https://arxiv.org"


def test_pdfium_without_pypdfium2_stops_start_up(monkeypatch):
    monkeypatch.setitem(sys.modules, "pypdfium2", None)  # as if the package were not installed
    with pytest.raises(ConfigError) as err:
        load({"ARXIV_MCP_PDF_ENGINE": "pdfium"})
    assert "ARXIV_MCP_PDF_ENGINE" in str(err.value) and "pypdfium2" in str(err.value)
    assert load({"ARXIV_MCP_PDF_ENGINE": "auto"}).pdf_engine == "auto", "auto falls back to pypdf"


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--transport", "http", "--port", "99999"], "1 to 65535"),
        (["--transport", "http", "--port", "0"], "1 to 65535"),
        (["--transport", "http", "--port", "-1"], "1 to 65535"),
        (["--port", "8080"], "--transport http"),
        (["--transport", "http", "--port", "eighty"], "invalid int"),
        (["--transport", "carrier-pigeon"], "invalid choice"),
    ],
)
def test_command_line_mistakes_are_one_line(argv, words, tmp_path, monkeypatch, capsys):
    from arxiv_mcp import cli

    monkeypatch.setenv("ARXIV_MCP_HOME", str(tmp_path))
    try:
        status = cli.main(argv)
    except SystemExit as exit_:
        status = exit_.code
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1 and words in err, err


def test_the_largest_accepted_values_still_load(tmp_path):
    cfg = load(
        {
            "ARXIV_MCP_HOME": str(tmp_path),
            "ARXIV_MCP_TIMEOUT_S": "600",
            "ARXIV_MCP_DEADLINE_S": "3600",
            "ARXIV_MCP_MAX_DOWNLOAD_MB": "4096",
            "ARXIV_MCP_SESSION_TTL_S": "315360000",
        }
    )
    assert (cfg.timeout_s, cfg.deadline_s, cfg.max_download_mb) == (600, 3600, 4096)


def test_home_is_normalised_to_an_absolute_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load({"ARXIV_MCP_HOME": "cache/here"}).home == tmp_path / "cache" / "here"
    platforms.set_user_home(monkeypatch, tmp_path)
    assert load({"ARXIV_MCP_HOME": "~/x"}).home == tmp_path / "x"


@platforms.posix_user_homes
def test_an_unknown_user_home_stops_start_up_in_one_line(tmp_path, capsys, monkeypatch):
    from arxiv_mcp.cli import main

    monkeypatch.setenv("ARXIV_MCP_HOME", "~nosuchuser-arxiv-mcp/x")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nosuchuser-arxiv-mcp" in err and "Traceback" not in err


def test_at_most_64_http_tokens_and_none_is_shown():
    tokens = [f"token-number-{n:04d}-abcdef" for n in range(65)]
    with pytest.raises(ConfigError) as err:
        load({"ARXIV_MCP_HTTP_TOKEN": ",".join(tokens)})
    assert "at most 64" in str(err.value) and "token-number" not in str(err.value)
    assert len(load({"ARXIV_MCP_HTTP_TOKEN": ",".join(tokens[:64])}).http_tokens) == 64
