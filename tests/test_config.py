import pytest

from arxiv_mcp.config import ConfigError, load


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
    with pytest.raises(ConfigError):
        load(
            {
                "ARXIV_MCP_MIN_INTERVAL_S": "0.5",
                "ARXIV_MCP_API_URL": "http://127.0.0.1:1/api/query",
                "ARXIV_MCP_SITE_URL": "http://127.0.0.1:1",
            }
        )  # ar5iv still points at arXiv


def test_interval_below_three_allowed_for_a_local_mirror():
    cfg = load(
        {
            "ARXIV_MCP_MIN_INTERVAL_S": "0",
            "ARXIV_MCP_API_URL": "http://127.0.0.1:1/api/query",
            "ARXIV_MCP_SITE_URL": "http://127.0.0.1:1",
            "ARXIV_MCP_AR5IV_URL": "http://127.0.0.1:1/ar5iv",
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
