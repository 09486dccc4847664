"""Two versions of one small paper that differ in known ways, in every form the fake serves.

v2 differs from v1 by: a title word, an abstract sentence, a section removed (Background), one
added (Ablation), a paragraph changed (Method) with its equation, a table's numbers and a
sentence's number (Results), a figure added, two references added. The same content is written
as arXiv's LaTeXML HTML, as a LaTeX e-print (one gzipped .tex) and as a PDF, so a comparison can
be checked to find the same changes whichever form each version is read from.
"""

from __future__ import annotations

import gzip
import html
from dataclasses import dataclass, field, replace

from tests.pdfgen import make_pdf

FILLER = "The setting follows common practice and the details are given in full for every run we made. "


@dataclass(frozen=True)
class Version:
    title: str
    abstract: str
    sections: list[tuple[str, list[str]]]
    equation: str
    table: list[tuple[str, str, str]]
    figures: list[str]
    references: list[str]
    extra: dict[str, str] = field(default_factory=dict)


V1 = Version(
    title="Sparse Routing for Small Language Models",
    abstract=(
        "We study sparse routing in small language models. "
        "Routing a token to two experts keeps quality while halving compute. "
        "We release our code."
    ),
    sections=[
        ("Introduction", ["Small models need cheap inference and sparse routing offers it. " + FILLER * 3]),
        (
            "Background",
            [
                "Mixture of experts layers date back many years and were revived recently. "
                "Early systems trained each expert apart and joined them with a learned gate. "
                "Later work shared the gate across layers to save memory on long inputs."
            ],
        ),
        (
            "Method",
            [
                "Each token is sent to the experts with the highest gate values. " + FILLER * 2,
                "The gate is a linear map followed by a softmax over the experts. " + FILLER * 2,
            ],
        ),
        (
            "Results",
            [
                "Our router reaches an accuracy of 91.2 on the held out set. " + FILLER * 2,
                "Table 1 lists the scores and Figure 1 shows the loss curves. " + FILLER,
            ],
        ),
        ("Conclusion", ["Sparse routing makes small models cheaper to run. " + FILLER * 2]),
    ],
    equation="y = \\sum_{i} g_{i} x_{i}",
    table=[("Model", "Accuracy", "Speed"), ("Dense", "88.4", "1.0"), ("Ours", "91.2", "1.9")],
    figures=["Training loss over steps."],
    references=[
        "A. Author. Mixtures of experts revisited. 2019.",
        "B. Writer. Gating networks for language. 2021.",
    ],
)

V2 = replace(
    V1,
    title="Sparse Routing for Tiny Language Models",
    abstract=(
        "We study sparse routing in small language models. "
        "Routing a token to one expert keeps quality while cutting compute by two thirds. "
        "We release our code."
    ),
    sections=[
        V1.sections[0],
        (
            "Method",
            [
                V1.sections[2][1][0],
                "The gate is a linear map followed by a sparsemax over the experts and a load balancing term. "
                + FILLER * 2,
            ],
        ),
        (
            "Results",
            [
                "Our router reaches an accuracy of 92.7 on the held out set. " + FILLER * 2,
                V1.sections[3][1][1],
            ],
        ),
        (
            "Ablation",
            [
                "Removing the load balancing term lowers accuracy by a wide margin. "
                "Without it most tokens reach the same expert and the others stay idle."
            ],
        ),
        V1.sections[4],
    ],
    equation="y = \\sum_{i} g_{i} x_{i} + \\lambda b",
    table=[("Model", "Accuracy", "Speed"), ("Dense", "88.4", "1.0"), ("Ours", "92.7", "2.3")],
    figures=["Training loss over steps.", "Accuracy against the number of experts."],
    references=[
        *V1.references,
        "C. Scholar. Sparsemax and its uses. 2022.",
        "D. Critic. Load balancing for routers. 2023.",
    ],
)


# --- LaTeXML HTML ----------------------------------------------------------------------------


def as_html(v: Version) -> str:
    esc = html.escape
    body = []
    for n, (title, paragraphs) in enumerate(v.sections, start=1):
        parts = [f'<div class="ltx_para"><p class="ltx_p">{esc(p)}</p></div>' for p in paragraphs]
        if title == "Method":
            parts.append(_html_equation(v.equation))
        if title == "Results":
            parts.append(_html_table(v.table))
            parts += [_html_figure(k, caption) for k, caption in enumerate(v.figures, start=1)]
        body.append(
            f'<section class="ltx_section" id="S{n}"><h2 class="ltx_title ltx_title_section">'
            f'<span class="ltx_tag ltx_tag_section">{n} </span>{esc(title)}</h2>{"".join(parts)}</section>'
        )
    bib = "".join(
        f'<li class="ltx_bibitem" id="bib.bib{k}"><span class="ltx_tag ltx_role_refnum ltx_tag_bibitem">[{k}]</span>'
        f'<span class="ltx_bibblock">{esc(entry)}</span></li>'
        for k, entry in enumerate(v.references, start=1)
    )
    return (
        f"<!DOCTYPE html><html><head><title>{esc(v.title)}</title>"
        "<!--Generated on Tue Feb  6 19:39:27 2024 by LaTeXML (version 0.8.7) http://dlmf.nist.gov/LaTeXML/.-->"
        '</head><body><div class="ltx_page_main"><div class="ltx_page_content"><article class="ltx_document">'
        f'<h1 class="ltx_title ltx_title_document">{esc(v.title)}</h1>'
        f'<div class="ltx_abstract"><h6 class="ltx_title ltx_title_abstract">Abstract</h6>'
        f'<p class="ltx_p">{esc(v.abstract)}</p></div>{"".join(body)}'
        '<section class="ltx_bibliography" id="bib"><h2 class="ltx_title ltx_title_bibliography">References</h2>'
        f'<ul class="ltx_biblist">{bib}</ul></section></article></div></div></body></html>'
    )


def _html_equation(latex: str) -> str:
    return (
        '<table class="ltx_equation ltx_eqn_table" id="S2.E1"><tbody><tr class="ltx_equation ltx_eqn_row">'
        f'<td class="ltx_eqn_cell"><math alttext="{html.escape(latex)}" class="ltx_Math" display="block">'
        "<mi>y</mi></math></td>"
        '<td class="ltx_eqn_cell ltx_eqn_eqno"><span class="ltx_tag ltx_tag_equation">(1)</span></td>'
        "</tr></tbody></table>"
    )


def _html_table(rows: list[tuple[str, str, str]]) -> str:
    head = "".join(f'<th class="ltx_td ltx_th">{c}</th>' for c in rows[0])
    body = "".join(
        '<tr class="ltx_tr">' + "".join(f'<td class="ltx_td">{c}</td>' for c in r) + "</tr>" for r in rows[1:]
    )
    return (
        '<figure class="ltx_table" id="S3.T1"><figcaption class="ltx_caption">'
        '<span class="ltx_tag ltx_tag_table">Table 1: </span>Scores of the routers.</figcaption>'
        f'<table class="ltx_tabular"><thead class="ltx_thead"><tr class="ltx_tr">{head}</tr></thead>'
        f'<tbody class="ltx_tbody">{body}</tbody></table></figure>'
    )


def _html_figure(n: int, caption: str) -> str:
    return (
        f'<figure class="ltx_figure" id="S3.F{n}"><img class="ltx_graphics" src="x{n}.png" alt=""/>'
        f'<figcaption class="ltx_caption"><span class="ltx_tag ltx_tag_figure">Figure {n}: </span>'
        f"{html.escape(caption)}</figcaption></figure>"
    )


# --- LaTeX e-print -------------------------------------------------------------------------------


def as_latex(v: Version) -> bytes:
    parts = [
        "\\documentclass{article}\n\\usepackage{amsmath}\n\\usepackage{graphicx}\n",
        f"\\title{{{v.title}}}\n\\author{{Ada Lovelace}}\n\\begin{{document}}\n\\maketitle\n",
        f"\\begin{{abstract}}\n{v.abstract}\n\\end{{abstract}}\n",
    ]
    for title, paragraphs in v.sections:
        parts.append(f"\\section{{{title}}}\n" + "\n\n".join(paragraphs) + "\n")
        if title == "Method":
            parts.append(f"\\begin{{equation}}\n{v.equation}\n\\end{{equation}}\n")
        if title == "Results":
            rows = " \\\\\n".join(" & ".join(r) for r in v.table)
            parts.append(
                "\\begin{table}\n\\caption{Scores of the routers.}\n\\begin{tabular}{lcc}\n"
                f"{rows} \\\\\n\\end{{tabular}}\n\\end{{table}}\n"
            )
            for k, caption in enumerate(v.figures, start=1):
                parts.append(
                    f"\\begin{{figure}}\n\\includegraphics{{fig{k}.png}}\n\\caption{{{caption}}}\n\\end{{figure}}\n"
                )
    items = "\n".join(f"\\bibitem{{r{k}}} {entry}" for k, entry in enumerate(v.references, start=1))
    parts.append(f"\\begin{{thebibliography}}{{9}}\n{items}\n\\end{{thebibliography}}\n\\end{{document}}\n")
    return gzip.compress("".join(parts).encode("utf-8"), mtime=0)


# --- PDF ------------------------------------------------------------------------------------------


def as_pdf(v: Version) -> bytes:
    import textwrap

    def wrap(text: str) -> str:
        return "\n".join(textwrap.wrap(text, 90))

    pages = [f"{v.title}\nAda Lovelace\n\nAbstract\n{wrap(v.abstract)}"]
    for n, (title, paragraphs) in enumerate(v.sections, start=1):
        lines = [f"{n} {title}"] + [wrap(p) + "\n" for p in paragraphs]
        if title == "Method":
            lines.append(f"{v.equation.replace(chr(92), '')}    (1)")
        if title == "Results":
            lines.append("Table 1: Scores of the routers.")
            lines += ["   ".join(r) for r in v.table]
            lines += [f"\nFigure {k}: {caption}" for k, caption in enumerate(v.figures, start=1)]
        pages.append("\n".join(lines))
    pages.append("References\n" + "\n".join(f"[{k}] {e}" for k, e in enumerate(v.references, start=1)))
    return make_pdf(pages)
