"""LaTeX source to a Document: assemble the main file, tokenize, expand bounded macros, convert.

Stages: `source` (main file, \\input, comments, the packages the paper ships, what the preamble
loads), `babel` (Spanish and German shorthands spelled out), `biblatex` (biber's .bbl as
\\bibitem entries), `listings` (listings' option captions read by `tokens` as the floats they
print), `definitions` (what the paper defines), `macros` (its macros and own environments,
expanded where `tokens` reads them), `conditionals` (TeX's \\if...\\fi decided where the answer
is known, in files and macro bodies), then the converter: `engine` (the one walk, its state and
argument readers) calling the functions `handlers` registers for `specs`' names, from `front`,
`sections`, `floats`, `crossrefs`, `units` (siunitx), with `numbering`'s counters (`counters`:
those the paper creates, sets and renews), writing into `sinks`; `pace` keeps the call's
deadline throughout; figures, tables, equations and bibliography entries are `drafts` until the
walk ends (`typed`: captions typed by hand) (`graphics` names their images' members); `document`
writes the result through the DocumentBuilder; `references` resolves \\ref and \\cite as
printed; `specs` holds the tables of what known commands and environments mean; `convert` is the
entry point.

Contract: input is the e-print's members in memory (already checked by `text.archive`);
output is a `Document` whose text is the shared text shape, with headings numbered as LaTeX
prints them, figures and tables with their caption numbers, numbered equations, bibliography
entries with their ids and citations with their keys (never a raw key in the text). Expansion
and every reader are bounded in depth and size, so a hostile source cannot loop or explode.
"""
