"""How papers label their figures and tables, and how readers name them: the one grammar.

`FIGURE_PRINTED` and `TABLE_PRINTED` are the words a caption opens with, in the forms papers
print (`Figure`, `Fig.`, `FIG.`, `FIGURE`; `Table`, `TABLE`, `Tab.`): matched case-sensitively,
so a lower-case "figure" that a sentence carried to a line start is not a caption.
`FIGURE_NAMED` and `TABLE_NAMED` are the same words as a reader writes them: any case,
singular or plural, the stop optional (`fig 3`, `Figs. 2`, `tables 4`); match them with
re.IGNORECASE. `PRINTED_LABEL` is a printed label with its number as a caption opens with
it (`Figure 3`, `FIG. 2`, `Table IV`, `Fig. A1`, `Table 2.1b`), its groups `label`, `name`
and `number`: the one caption grammar a text without markup (a PDF's) is read with.
Patterns, not compiled: each caller composes them with what goes around them.
"""

from __future__ import annotations

FIGURE_PRINTED = r"Figure|Fig\.|FIG\.|FIGURE"
TABLE_PRINTED = r"Table|TABLE|Tab\."
FIGURE_NAMED = r"fig(?:ure)?s?\.?"
TABLE_NAMED = r"tab(?:le)?s?\.?"
PRINTED_NUMBER = r"(?:\d{1,3}(?:\.\d{1,2})?[a-z]?|[A-Z]\.?\d{1,3}|[IVXL]{1,6})"
PRINTED_LABEL = rf"(?P<label>(?P<name>{FIGURE_PRINTED}|{TABLE_PRINTED})\s?(?P<number>{PRINTED_NUMBER}))"
