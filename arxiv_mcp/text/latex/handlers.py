"""The walk's handlers: each row pairs a function over the walk (`engine.Walk`) with the
names it reads, as `specs` names them (`CITE_COMMANDS`, `FIGURE_ENVS`, ...), so the walk calls
a handler found in a table, never by building a name. A new command of a known kind is a name
in its row (or in `specs`' table the row names); a new kind is a function in its concern's
module and a row here. Every name here, and every name `specs` gives a meaning, is also
protected from the paper's redefinitions (`PROTECTED`).
"""

from __future__ import annotations

from collections.abc import Iterable

from . import algorithms, counters, crossrefs, engine, floats, front, sections, units
from .definitions import builtin_theorems
from .engine import CommandHandler, EnvironmentHandler, Handlers
from .numbering import STYLES
from .specs import (
    ALGORITHM_WORDS,
    BIBLIOGRAPHY_ENVS,
    CITE_COMMANDS,
    DISCARD_ENVS,
    ENV_SPECS,
    FIGURE_ENVS,
    FONT_SWITCHES,
    HEADING_COMMANDS,
    LIST_ENVS,
    PAR_COMMANDS,
    QUANTITIES,
    REF_COMMANDS,
    SKIP_SPECS,
    TABLE_FLOATS,
    TABULAR_SPECS,
)

_COMMANDS: tuple[tuple[CommandHandler, Iterable[str]], ...] = (
    (front.cmd_title, ("title", "AtlasTitle", "icmltitle")),
    (front.cmd_author, ("author", "collaboration")),
    (front.cmd_affiliation, ("affiliation", "altaffiliation", "address", "affil")),
    (front.cmd_institute, ("institute",)),
    (front.cmd_icml_author, ("icmlauthor",)),
    (front.cmd_icml_affiliation, ("icmlaffiliation",)),
    (front.cmd_icml_symbol, ("icmlsetsymbol",)),
    # acmart's affiliation parts: the PDF prints them as one comma-separated address
    (
        front.cmd_affiliation_part,
        ("institution", "department", "streetaddress", "city", "state", "postcode", "country"),
    ),
    (front.cmd_column_switch, ("twocolumn", "onecolumn")),
    (front.cmd_and, ("and",)),
    (front.cmd_thanksref, ("thanksref",)),
    (front.cmd_inst, ("inst",)),
    (front.cmd_note, ("thanks", "thanks*")),  # a title-page footnote
    (front.cmd_abstract, ("abstract", "AtlasAbstract")),
    (front.cmd_maketitle, ("maketitle",)),
    (front.cmd_font, ("textbf", "textsc")),
    (front.cmd_footnote, ("footnote", "footnote*", "footnotetext")),
    (sections.cmd_item, ("item", "item*")),
    (crossrefs.cmd_bibitem, ("bibitem",)),
    (crossrefs.cmd_harvarditem, ("harvarditem",)),
    (crossrefs.cmd_csname, ("csname",)),
    (floats.cmd_caption, ("caption", "caption*", "subcaption", "tablecaption")),
    (floats.cmd_table_row, ("tablehead", "cutinhead", "colhead", "startdata", "enddata")),
    (floats.cmd_subfloat, ("subfloat", "subfigure", "subtable")),
    (floats.cmd_graphics, ("includegraphics", "includegraphics*", "epsfig", "psfig", "epsfbox", "epsffile")),
    (floats.cmd_continued_float, ("ContinuedFloat",)),
    # siunitx (`units.py`): what each reads is its table there
    (units.cmd_quantity, QUANTITIES),
    (floats.cmd_span, ("multicolumn", "multicolumn*", "multirow")),
    (
        floats.cmd_rule,
        (
            "hline",
            "midrule",
            "toprule",
            "bottomrule",
            "specialrule",
            "Xhline",
            "hhline",
            "hdashline",
            "firsthline",
            "lasthline",
        ),
    ),
    (floats.cmd_captionof, ("captionof",)),
    (floats.cmd_insert, ("topinsert", "midinsert", "pageinsert")),
    (floats.cmd_caption_label_format, ("DeclareCaptionLabelFormat",)),
    (floats.cmd_caption_setup, ("captionsetup",)),
    (floats.cmd_new_float, ("newfloat", "floatname", "DeclareFloatingEnvironment")),
    (sections.cmd_appendix, ("appendix",)),
    (crossrefs.cmd_href, ("href",)),
    (crossrefs.cmd_doi, ("doi",)),
    (crossrefs.cmd_eprint, ("eprint",)),
    (crossrefs.cmd_label, ("label",)),
    (crossrefs.cmd_step_equation, ("@stepequation", "@tagequation")),
    (counters.cmd_set_counter, ("setcounter", "addtocounter")),
    (counters.cmd_number_within, ("numberwithin", "counterwithin", "counterwithout")),
    (counters.cmd_renew_the, ("renewcommand", "renewcommand*")),
    (counters.cmd_new_counter, ("newcounter",)),
    (counters.cmd_step_counter, ("stepcounter", "refstepcounter")),
    (counters.cmd_count, tuple(STYLES)),
    (engine.cmd_first_of_two, ("texorpdfstring", "@firstoftwo")),
    (engine.cmd_if_then_else, ("ifthenelse",)),
    (engine.cmd_if_toggle, ("iftoggle", "ifbool")),
    (engine.cmd_toggle, ("toggletrue", "togglefalse", "booltrue", "boolfalse", "settoggle", "setbool")),
    (sections.cmd_new_theorem, ("newtheorem", "newtheorem*")),
    (floats.cmd_halign, ("halign",)),
    (floats.cmd_row_end, ("cr", "crcr")),
    (floats.cmd_cell_lines, ("makecell", "thead", "shortstack", "specialcell", "Centerstack")),
    (sections.cmd_heading, HEADING_COMMANDS),
    (crossrefs.cmd_cite, CITE_COMMANDS),
    (crossrefs.cmd_ref, REF_COMMANDS),
)
# Theorem-like environments are the paper's (`\\newtheorem`), found at run time: `Handlers.theorem`.
_ENVIRONMENTS: tuple[tuple[EnvironmentHandler, Iterable[str]], ...] = (
    (front.env_abstract, ("abstract",)),
    (sections.env_bibliography, BIBLIOGRAPHY_ENVS),
    (sections.env_appendix, ("appendix", "appendices")),
    (front.env_keywords, ("keywords", "IEEEkeywords")),
    (sections.env_acknowledgments, ("acknowledgments", "acknowledgements", "acks")),
    (floats.env_figure, FIGURE_ENVS),
    (floats.env_new_float, ("@newfloat",)),
    (floats.env_subfloat, ("subfigure", "subtable")),
    (floats.env_minipage, ("minipage",)),
    (algorithms.env_algorithm, ("algorithm", "algorithm*", "listing")),
    (crossrefs.env_subequations, ("subequations",)),
    (floats.env_table_float, TABLE_FLOATS),
    (floats.env_deluxetable, ("deluxetable", "deluxetable*")),
    (floats.env_tabular, TABULAR_SPECS),
    (sections.env_list, LIST_ENVS),
)
HANDLERS = Handlers(
    commands={name: handler for handler, names in _COMMANDS for name in names},
    environments={name: handler for handler, names in _ENVIRONMENTS for name in names},
    theorem=sections.env_theorem,
)
PROTECTED = frozenset(
    {*HANDLERS.commands, *SKIP_SPECS, *PAR_COMMANDS, *ALGORITHM_WORDS, *FONT_SWITCHES, "begin", "end"}
    # read by the tokenizer, or spelled out by the converter as symbols
    | {"url", "path", "verb", "AND", "And", "newblock", "ensuremath", "xspace"}
) - set(QUANTITIES)
"""Names the tokenizer or the converter give a meaning of their own: a redefinition in the
paper is not applied, nor taken for an environment's alias (siunitx's names excepted: a
paper's own \\unit is the paper's)."""
KNOWN_ENVIRONMENTS = frozenset(
    {*HANDLERS.environments, *ENV_SPECS, *DISCARD_ENVS, *builtin_theorems(), "document", "@newfloat"}
)
"""Environments the walk gives a meaning of its own: a paper's definition of one is not applied."""
