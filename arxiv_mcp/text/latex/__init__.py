"""LaTeX source to text: assemble the main file, tokenize, expand bounded macros, convert.

Contract: input is the e-print's members in memory (already checked by `text.archive`);
output is the shared text shape. Expansion is bounded in depth and size, so a hostile
source cannot loop or explode.
"""
