"""LaTeX source to text: assemble the main file, tokenize, expand bounded macros, convert.

Modules: `source` (main file, \\input, comments, the packages the paper ships), `biblatex`
(biber's .bbl as \\bibitem entries), `tokens`, `macros` (the paper's own definitions), `templates` (those with arguments), `specs`
(what known commands mean), `references` (\\ref and \\cite as printed), `convert` (the engine).

Contract: input is the e-print's members in memory (already checked by `text.archive`);
output is the shared text shape. Expansion is bounded in depth and size, so a hostile
source cannot loop or explode.
"""
