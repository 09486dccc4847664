"""Which function plays each role of `specs`' tables: the walk's handlers, by name.

`specs` says what a name means (`\\citep` is a citation, `figure*` a figure); the rows here
give each role its function over the walk (`engine.Walk`), so the walk calls a handler found
in a table, never by building a name. A new command of a known kind is a row in `specs`; a
new kind is a function in its concern's module and a row here.
"""

from __future__ import annotations

from . import crossrefs, engine, floats, front, sections, units
from .engine import CommandHandler, EnvironmentHandler, Handlers
from .specs import COMMAND_HANDLERS, ENVIRONMENT_HANDLERS

_COMMAND_ROLES: dict[str, CommandHandler] = {
    "title": front.cmd_title,
    "author": front.cmd_author,
    "affiliation": front.cmd_affiliation,
    "institute": front.cmd_institute,
    "icml_author": front.cmd_icml_author,
    "icml_affiliation": front.cmd_icml_affiliation,
    "icml_symbol": front.cmd_icml_symbol,
    "affiliation_part": front.cmd_affiliation_part,
    "column_switch": front.cmd_column_switch,
    "and": front.cmd_and,
    "thanksref": front.cmd_thanksref,
    "inst": front.cmd_inst,
    "note": front.cmd_note,
    "abstract": front.cmd_abstract,
    "maketitle": front.cmd_maketitle,
    "font": front.cmd_font,
    "footnote": front.cmd_footnote,
    "item": sections.cmd_item,
    "bibitem": crossrefs.cmd_bibitem,
    "caption": floats.cmd_caption,
    "subfloat": floats.cmd_subfloat,
    "graphics": floats.cmd_graphics,
    "continued_float": floats.cmd_continued_float,
    "quantity": units.cmd_quantity,
    "span": floats.cmd_span,
    "rule": floats.cmd_rule,
    "captionof": floats.cmd_captionof,
    "appendix": sections.cmd_appendix,
    "href": crossrefs.cmd_href,
    "doi": crossrefs.cmd_doi,
    "eprint": crossrefs.cmd_eprint,
    "label": crossrefs.cmd_label,
    "step_equation": crossrefs.cmd_step_equation,
    "first_of_two": engine.cmd_first_of_two,
    "if_then_else": engine.cmd_if_then_else,
    "if_toggle": engine.cmd_if_toggle,
    "halign": floats.cmd_halign,
    "row_end": floats.cmd_row_end,
    "cell_lines": floats.cmd_cell_lines,
    "heading": sections.cmd_heading,
    "cite": crossrefs.cmd_cite,
    "ref": crossrefs.cmd_ref,
}
_ENVIRONMENT_ROLES: dict[str, EnvironmentHandler] = {
    "abstract": front.env_abstract,
    "bibliography": sections.env_bibliography,
    "appendix": sections.env_appendix,
    "keywords": front.env_keywords,
    "acknowledgments": sections.env_acknowledgments,
    "figure": floats.env_figure,
    "subfloat": floats.env_subfloat,
    "algorithm_float": floats.env_algorithm_float,
    "subequations": crossrefs.env_subequations,
    "table_float": floats.env_table_float,
    "tabular": floats.env_tabular,
    "list": sections.env_list,
}
HANDLERS = Handlers(
    commands={name: _COMMAND_ROLES[role] for name, role in COMMAND_HANDLERS.items()},
    environments={name: _ENVIRONMENT_ROLES[role] for name, role in ENVIRONMENT_HANDLERS.items()},
    theorem=sections.env_theorem,
)
