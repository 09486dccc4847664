"""How papers label their figures and tables, and how readers name them: the one grammar.

`FIGURE_PRINTED` and `TABLE_PRINTED` are the words a caption opens with, in the forms papers
print (`Figure`, `Fig.`, `FIG.`, `FIGURE`; `Table`, `TABLE`, `Tab.`): matched case-sensitively,
so a lower-case "figure" that a sentence carried to a line start is not a caption.
`FIGURE_NAMED` and `TABLE_NAMED` are the same words as a reader writes them: any case,
singular or plural, the stop optional (`fig 3`, `Figs. 2`, `tables 4`); match them with
re.IGNORECASE. Patterns, not compiled: each caller composes them with its own number grammar.
"""

from __future__ import annotations

FIGURE_PRINTED = r"Figure|Fig\.|FIG\.|FIGURE"
TABLE_PRINTED = r"Table|TABLE|Tab\."
FIGURE_NAMED = r"fig(?:ure)?s?\.?"
TABLE_NAMED = r"tab(?:le)?s?\.?"
