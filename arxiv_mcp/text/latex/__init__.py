"""LaTeX source to text: assemble the main file, tokenize, expand bounded macros, convert.

Stages: `source` (main file, \\input, comments, the packages the paper ships, what the preamble
defines and loads), `biblatex` (biber's .bbl as \\bibitem entries), `macros` (the paper's own
definitions) and `templates` (those with arguments), `tokens`, then the converter: `engine` (the
one walk and its argument readers) with the handler groups `front`, `sections`, `floats`,
`crossrefs`, writing into `sinks`; `document` renders the result; `references` resolves \\ref and
\\cite as printed; `specs` holds the tables of what known commands and environments mean;
`convert` is the entry point.

Contract: input is the e-print's members in memory (already checked by `text.archive`);
output is the shared text shape. Expansion is bounded in depth and size, so a hostile
source cannot loop or explode.
"""
