"""The truth of an arXiv HTML page (LaTeXML, latexml-oxide, ar5iv), read from the page itself
with a small parser of its own, for `structure.py`'s HTML rows.

Read: every numbered `ltx_figure`/`ltx_table` float (its caption tag and caption), every table
float's cell texts by row, every numbered equation (its `ltx_tag_equation` and the `alttext`s
of its unit) and every `ltx_bibitem` id. (An equation whose number has no formula beside it
has nothing to list and is not counted.) `acceptance` compares an extracted document with it:
found/true per kind, captions equal, table cells found in the right row, equation LaTeX equal
to the alttext, references with their ids, and whether the page meets issue 21's bounds (every
item listed with its number, captions equal, >= 95% of cells, LaTeX == alttext).
"""

from __future__ import annotations

from html.parser import HTMLParser

from arxiv_mcp.text.document import Document, Equation, Figure, Reference, Table
from arxiv_mcp.text.html.parts import clean_alttext

VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())


def _collapse(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())


class HtmlTruth(HTMLParser):
    """The page's own floats, equations and bibliography entries."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, set[str]]] = []
        self.floats: list[dict] = []  # numbered ones, document order
        self._open: list[dict] = []
        self.equations: list[tuple[str, list[str]]] = []  # (number, alttexts of its unit)
        self._units: list[dict] = []
        self.bibitems: list[str] = []
        self.cites = 0  # ltx_cite elements linking to a bibliography entry
        self._cite_depth = 0
        self._cite_linked = False
        self._capture: list[list[str]] = []  # open text captures (caption, tag, cell, eq number)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        if tag in VOID:
            return
        self.stack.append((tag, classes))
        kinds = []
        if tag == "figure" and classes & {"ltx_figure", "ltx_table"}:
            self._open.append({"table": "ltx_table" in classes, "tag": None, "caption": None, "rows": []})
            kinds.append("float")
        if tag == "figcaption" and self._open and self._open[-1]["caption"] is None:
            kinds.append("caption")
        if classes & {"ltx_tag_figure", "ltx_tag_table"} and self._open and self._open[-1]["tag"] is None:
            kinds.append("tag")
        if tag == "table" and "ltx_tabular" in classes:
            kinds.append("tabular")
        depth = sum(1 for entry in self.stack if len(entry) > 2 and "tabular" in entry[2]) + ("tabular" in kinds)
        in_table = bool(self._open) and self._open[-1]["table"] and depth == 1
        if tag == "tr" and in_table and "ltx_eqn_row" not in classes:
            self._open[-1]["rows"].append([])
        if tag in ("td", "th") and in_table and self._open[-1]["rows"] and not self._cell_open():
            kinds.append("cell")
        if (tag == "table" and classes & {"ltx_equation", "ltx_equationgroup"}) or (
            tag == "tbody" and self._units and attributes.get("id")
        ):
            self._units.append({"number": None, "alt": []})
            kinds.append("unit")
        if classes & {"ltx_tag_equation", "ltx_tag_equationgroup"} and self._units:
            kinds.append("eqno")
        if "ltx_cite" in classes:
            kinds.append("cite")
            self._cite_depth += 1
            self._cite_linked = False
        if tag == "a" and self._cite_depth and "#bib" in (attributes.get("href") or ""):
            self._cite_linked = True
        if "ltx_bibitem" in classes and attributes.get("id"):
            self.bibitems.append(attributes["id"])
        if tag == "math" and self._units:
            self._units[-1]["alt"].append(attributes.get("alttext") or "")
        if tag == "math":
            for capture in self._capture:
                capture.append(" $" + clean_alttext(attributes.get("alttext") or "") + "$ ")
            kinds.append("math")
        for kind in kinds:
            if kind not in ("float", "unit", "math", "tabular", "cite"):
                self._capture.append([])
        self.stack[-1] = (tag, classes, kinds)  # type: ignore[assignment]

    def handle_endtag(self, tag):
        if tag in VOID or not any(entry[0] == tag for entry in self.stack):
            return
        while self.stack:
            entry = self.stack.pop()
            self._close(entry[2] if len(entry) > 2 else [])
            if entry[0] == tag:
                break

    def _close(self, kinds):
        for kind in reversed(kinds):
            if kind in ("math", "tabular"):
                continue
            if kind == "cite":
                self._cite_depth -= 1
                self.cites += self._cite_linked
                continue
            if kind == "float":
                state = self._open.pop()
                if state["tag"] and not state["tag"].startswith("("):
                    self.floats.append(state)
                continue
            if kind == "unit":
                unit = self._units.pop()
                if unit["number"] and any(unit["alt"]):  # a number without a formula has nothing to list
                    self.equations.append((unit["number"], unit["alt"]))
                continue
            text = _collapse("".join(self._capture.pop()))
            if kind == "caption":
                self._open[-1]["caption"] = text
            elif kind == "tag":
                self._open[-1]["tag"] = text
            elif kind == "cell" and self._open and self._open[-1]["rows"]:
                self._open[-1]["rows"][-1].append(text)
            elif kind == "eqno" and self._units and not self._units[-1]["number"]:
                self._units[-1]["number"] = text.strip("()")

    def handle_data(self, data):
        if self._math_depth():
            return
        for capture in self._capture:
            capture.append(data)

    def _cell_open(self) -> bool:
        return any(len(entry) > 2 and "cell" in entry[2] for entry in self.stack)

    def _math_depth(self) -> bool:
        return any(entry[0] == "math" for entry in self.stack)


def read_truth(raw: bytes) -> HtmlTruth:
    truth = HtmlTruth()
    truth.feed(raw.decode("utf-8", "replace"))
    return truth


def counts(truth: HtmlTruth) -> dict[str, int]:
    figures = sum(1 for f in truth.floats if not f["table"])
    return {
        "figures": figures,
        "tables": len(truth.floats) - figures,
        "equations": len(truth.equations),
        "references": len(truth.bibitems),
    }


def acceptance(document: Document, truth: HtmlTruth) -> tuple[str, bool]:
    """One line of checks of `document` against its page, and whether the page passes."""
    figures, tables = document.records(Figure), document.records(Table)
    equations, references = document.records(Equation), document.records(Reference)
    true_figures = [f for f in truth.floats if not f["table"]]
    true_tables = [f for f in truth.floats if f["table"]]
    fig_numbers = [f.label for f in figures] == [_label(f["tag"]) for f in true_figures]
    tab_numbers = [t.label for t in tables] == [_label(t["tag"]) for t in true_tables]
    captions = [(r.caption, _caption(t)) for r, t in zip(figures + tables, true_figures + true_tables, strict=False)]
    equal = sum(1 for mine, theirs in captions if mine == theirs)
    cells = found = 0
    for record, true in zip(tables, true_tables, strict=False):
        rows = [row for row in true["rows"] if any(row)]
        for index, row in enumerate(rows):
            mine = set(record.rows[index]) if index < len(record.rows) else set()
            for text in filter(None, row):
                cells += 1
                found += text in mine
    by_number = {e.number: e for e in equations}
    eq_listed = sum(1 for number, _ in truth.equations if number in by_number)
    eq_equal = sum(
        1
        for number, alts in truth.equations
        if number in by_number and all(alt in by_number[number].latex for alt in alts if alt)
    )
    ok = (
        fig_numbers
        and tab_numbers
        and equal == len(captions) == len(truth.floats)
        and (not cells or found >= 0.95 * cells)
        and eq_listed == eq_equal == len(truth.equations)
        and [r.key for r in references] == truth.bibitems
    )
    line = (
        f"captions {equal}/{len(truth.floats)} cells {found}/{cells} latex==alttext {eq_equal}/{len(truth.equations)} "
        f"ids arXiv {sum(1 for r in references if r.arxiv_id)} doi {sum(1 for r in references if r.doi)} "
        f"cites {len(document.citations)}/{truth.cites} {'ok' if ok else 'FAIL'}"
    )
    for mine, theirs in captions:
        if mine != theirs:
            line += f"\n    caption differs:\n      page: {theirs[:160]}\n      ours: {mine[:160]}"
    return line, bool(ok)


def _label(tag: str) -> str:
    return _collapse(tag).rstrip(":.").strip()


def _caption(state: dict) -> str:
    caption, tag = state["caption"] or "", _collapse(state["tag"] or "")
    return caption[len(tag) :].lstrip(" :.").strip() if caption.startswith(tag) else caption
