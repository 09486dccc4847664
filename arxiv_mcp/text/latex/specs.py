"""What the converter knows about LaTeX commands and environments, as tables.

The engine (`engine.Walk`) walks tokens; these tables say what each known name means: which
environments are lists, floats, tables or dropped, which commands are headings, citations or
references (`handlers.py` pairs each kind with its function), which are layout commands whose
arguments are dropped (`SKIP_SPECS`), which print a symbol. Adding a class's or package's
commands means adding rows here (or names to a row of `handlers.py`), not code.
"""

from __future__ import annotations

LIST_ENVS = {
    "itemize": "-",
    "itemize*": "-",
    "compactitem": "-",
    "asparaitem": "-",
    "inparaitem": "-",
    "dinglist": "-",
    "enumerate": "1",
    "enumerate*": "1",
    "compactenum": "1",
    "asparaenum": "1",
    "inparaenum": "1",
    "description": "d",
    "description*": "d",
    "compactdesc": "d",
    "list": "-",
}
FIGURE_ENVS = {"figure", "figure*", "wrapfigure", "SCfigure", "sidewaysfigure", "sidewaysfigure*"}
TABLE_FLOATS = {"table", "table*", "wraptable", "sidewaystable", "sidewaystable*", "SCtable"}
TABULAR_SPECS = {
    "tabular": "om",
    "tabular*": "mom",
    "tabularx": "mom",
    "tabulary": "mom",
    "longtable": "om",
    "longtable*": "om",
    "supertabular": "om",
    "xtabular": "om",
    "array": "om",
}
DISCARD_ENVS = {
    "tikzpicture",
    "picture",
    "pspicture",
    "filecontents",
    "filecontents*",
    "pgfpicture",
    "axis",
    "tocentry",
    "CCSXML",  # acmart: the concepts' XML goes to the metadata; \\ccsdesc prints them
}
# the arguments an environment's \\begin takes, dropped (codes as SKIP_SPECS'); any other: `o`
ENV_SPECS = {
    "minipage": "ooom",
    "multicols": "mo",
    "multicols*": "mo",
    "wrapfigure": "omom",
    "wraptable": "omom",
    "list": "mm",
    "adjustbox": "m",
    "spacing": "m",
    "tcolorbox": "o",
    "mdframed": "o",
    "algorithmic": "o",
    "center": "",
    "otherlanguage": "m",
    "otherlanguage*": "m",
    "hyphenrules": "m",
    "sloppypar": "",
    "CJK": "mm",
    "CJK*": "mm",
    "floatrow": "o",
}
HEADING_LEVELS = {"section": 0, "subsection": 1, "subsubsection": 2}
CHAPTER_LEVELS = {"chapter": 0, "section": 1, "subsection": 2, "subsubsection": 3}
SKIP_SPECS = {
    # o = optional [..], m = one argument, d = an optional '=' and a TeX dimension (`2pt plus 1pt`,
    # `1.2\baselineskip`), P = \def parameter text, = = an optional '=', r = parenthesised (..),
    # k = a rule's `height 1pt depth 2pt width 0pt`; all dropped, later arguments stay as text.
    # A length register (`\parskip`, `\tabcolsep`: engine's `_LENGTH_NAME_RE`) reads `d` unlisted.
    "vrule": "k",
    "hrule": "k",
    "vspace": "m",
    "vspace*": "m",
    "hspace": "m",
    "hspace*": "m",
    "bibliographystyle": "m",
    "bibliography": "m",
    "thispagestyle": "m",
    "pagestyle": "m",
    "pagenumbering": "m",
    # Bibliography styles' markup (REVTeX/apsrev, natbib): field names and stop marks are not text;
    # \bibinfo{author}{A. Name} keeps its second argument.
    "bibinfo": "m",
    "bibfield": "m",
    "BibitemShut": "m",
    "@secondoftwo": "m",
    "@gobble": "m",
    "href@noop": "m",
    "selectlanguage": "m",
    "spacefactor": "d",
    "bibAnnoteFile": "m",
    "bibAnnote": "mm",
    "setlength": "mm",
    "addtolength": "mm",
    "color": "om",
    "pagecolor": "om",
    "usepackage": "om",
    "RequirePackage": "om",
    "documentclass": "om",
    "cline": "m",
    "cdashline": "mo",  # arydshln's \\cdashline{2-3}[0.4pt/2pt]
    "cmidrule": "rom",
    "rule": "omm",
    "phantom": "m",
    "hphantom": "m",
    "vphantom": "m",
    "fontsize": "mm",
    "linespread": "m",
    "definecolor": "mmm",
    "hypersetup": "m",
    "graphicspath": "m",
    "includeonly": "m",
    "enlargethispage": "m",
    "titlerunning": "m",
    "authorrunning": "m",
    "orcid": "m",
    "orcidlink": "m",
    "orcidID": "m",
    "email": "m",
    "ead": "om",
    # elsarticle's and svjour's labelled contact notes (corresponding author, e-mail)
    "cortext": "om",
    "fntext": "om",
    "tnotetext": "om",
    "thankstext": "mm",
    "tnoteref": "m",
    "fnref": "m",
    "corref": "m",
    "pagebreak": "o",
    "nopagebreak": "o",
    "cmsNoteHeader": "m",
    # messages to the log, never printed (a .bbl tests for its package: LHCb.bst's mciteplus)
    "PackageError": "mmm",
    "ClassError": "mmm",
    "PackageWarning": "mm",
    "PackageWarningNoLine": "mm",
    "ClassWarning": "mm",
    "ClassWarningNoLine": "mm",
    "PackageInfo": "mm",
    "ClassInfo": "mm",
    # mciteplus's list settings at the top of its bibliography
    "mciteSetBstSublistMode": "m",
    "mciteSetBstMaxWidthForm": "mm",
    "mciteSetBstSublistLabelBeginEnd": "mmm",
    "AtlasVersion": "m",
    "AtlasJournal": "m",
    "AtlasRefCode": "m",
    "AtlasDate": "m",
    "PreprintIdeNumber": "m",
    "pacs": "m",
    "date": "m",
    "markboth": "mm",
    "markright": "m",
    "lstset": "m",
    "tikzset": "m",
    # minted's \\mintinline[options]{language}{code}: the code prints (a paper's `\\hs` may be
    # `\\mintinline{haskell}`, its code following the macro)
    "mintinline": "om",
    "tikzstyle": "m=o",  # the old \\tikzstyle{proc}=[draw, circle]
    "pgfplotsset": "m",
    "usetikzlibrary": "m",
    "hyphenation": "m",
    "DeclareMathOperator": "mm",
    "addbibresource": "om",
    "newlength": "m",
    "settowidth": "mm",
    "setstretch": "m",
    "raisebox": "moo",
    "resizebox": "mm",
    "scalebox": "mo",
    "parbox": "ooom",
    "makebox": "oo",
    "framebox": "oo",
    "textcolor": "om",
    "foreignlanguage": "om",  # babel: the language, then the text
    "colorbox": "om",
    "fcolorbox": "mm",
    "hyperref": "o",
    "hyperlink": "m",
    "hypertarget": "m",
    "newenvironment": "moomm",
    "renewenvironment": "moomm",
    "newcommand": "moom",
    "newcommand*": "moom",
    "providecommand": "moom",
    "providecommand*": "moom",
    "DeclareRobustCommand": "moom",
    "def": "mPm",
    "gdef": "mPm",
    "edef": "mPm",
    "xdef": "mPm",
    "let": "m=m",
    "newif": "m",
    "theoremstyle": "m",
    "addcontentsline": "mmm",
    "vskip": "d",  # a paragraph command, which the length rule passes over
    "kern": "d",
    "footnotemark": "o",
    "includepdf": "om",
    "input": "m",
    "include": "m",
    "subfile": "m",
    "pgfdeclareimage": "omm",
    "special": "m",
    "pdfbookmark": "omm",
    "belowpdfbookmark": "mm",
    "pretolerance": "=",
    "tolerance": "=",
    "setlist": "om",
    "SetKwInOut": "mm",
    # algpseudocode's definitions of new blocks and their printed words
    "algblock": "mm",
    "algblockdefx": "mmomm",
    "algnewcommand": "mm",
    "algrenewcommand": "mm",
    "algrenewtext": "mom",
    "algtext": "omoom",  # [block]{command}[count][default]{text}
    "algtext*": "om",  # its command prints nothing
    "algnotext": "om",
    "SetKw": "mm",
    "bibpunct": "omm",
    "setcitestyle": "m",
    "keywordsname": "",
    "acmConference": "omm",
    "copyrightyear": "m",
    "acmYear": "m",
    "setcopyright": "m",
    "acmDOI": "m",
    "acmISBN": "m",
    "acmPrice": "m",
    "ccsdesc": "om",
    "received": "m",
    "accepted": "m",
    "published": "m",
    "journal": "m",
    "volume": "m",
    "runningtitle": "m",
    "shorttitle": "m",
    "shortauthors": "m",
    "correspondingauthor": "m",
    "icmltitlerunning": "m",
    "AtlasOrcid": "o",  # ATLAS's \\AtlasOrcid[0000-...]{Name}: the ORCID is a link icon, the name is text
    # MNRAS's running head: `\\pagerange{\\pageref{firstpage}--\\pageref{lastpage}}` prints `??` unresolved
    "pagerange": "m",
    "pubyear": "m",
    "icmlkeywords": "m",
    "icmlcorrespondingauthor": "mm",
    "Thanks": "m",
    "arrayrulecolor": "om",
    "rowcolor": "om",
    "cellcolor": "om",
    "columncolor": "om",
    "printAffiliationsAndNotice": "m",
    "AtBeginDocument": "m",
    "AtEndDocument": "m",
    "noalign": "m",
    "openup": "d",
    "setboolean": "mm",
    "provideboolean": "m",
    "newboolean": "m",
    "sisetup": "m",
    # deluxetable's settings (its type size, width, columns), never printed
    "tabletypesize": "m",
    "tablewidth": "m",
    "tablecolumns": "m",
    "rotate": "",
    "DeclareSIUnit": "omm",
}
PAR_COMMANDS = {
    "par",
    "vskip",
    "vspace",
    "vspace*",
    "bigskip",
    "medskip",
    "smallskip",
    "newpage",
    "clearpage",
    "cleardoublepage",
    "bigbreak",
    "medbreak",
    "smallbreak",
    "centerline",
}
SYMBOLS = {
    "ldots": "\u2026",
    "dots": "\u2026",
    "textellipsis": "\u2026",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
    "LaTeXe": "LaTeX2e",
    "BibTeX": "BibTeX",
    "copyright": "\u00a9",
    "textendash": "\u2013",
    "textemdash": "\u2014",
    "S": "\u00a7",
    "P": "\u00b6",
    "dag": "\u2020",
    "ddag": "\u2021",
    "pounds": "\u00a3",
    "textdegree": "\u00b0",
    "textbackslash": "\\",
    "textdollar": "\\$",
    "textasciitilde": "~",
    "textbar": "|",
    "textless": "<",
    "textgreater": ">",
    "slash": "/",
    "quad": " ",
    "qquad": " ",
    "enspace": " ",
    "enskip": " ",
    "hfill": " ",
    "hfil": " ",
    "space": " ",
    "nobreakspace": " ",
    "ss": "\u00df",
    "o": "\u00f8",
    "O": "\u00d8",
    "aa": "\u00e5",
    "AA": "\u00c5",
    "ae": "\u00e6",
    "AE": "\u00c6",
    "oe": "\u0153",
    "OE": "\u0152",
    "l": "\u0142",
    "L": "\u0141",
    "i": "\u0131",
    "j": "\u0237",
    "textregistered": "\u00ae",
    "texttrademark": "\u2122",
    "euro": "\u20ac",
    "textquoteright": "\u2019",
    "textquoteleft": "\u2018",
    "textquotedblleft": "\u201c",
    "textquotedblright": "\u201d",
    "textbullet": "\u2022",
    "textperiodcentered": "\u00b7",
    "textasciicircum": "^",
    "textunderscore": "_",
    "AND": ", ",
    "And": ", ",
    "newblock": " ",
    # biblatex's punctuation inside .bbl field values
    "bibrangedash": "\u2013",
    "bibdatedash": "\u2013",
    "bibinitperiod": ".",
    "bibinitdelim": " ",
    "bibinithyphendelim": ".-",
    "bibnamedelima": " ",
    "bibnamedelimb": " ",
    "bibnamedelimc": " ",
    "bibnamedelimd": " ",
    "bibnamedelimi": " ",
    "linebreak": " ",
    "allowbreak": "",
    "textsection": "\u00a7",
    "checkmark": "\u2713",
    "times": "\u00d7",
    "pm": "\u00b1",
    "textpm": "\u00b1",
    "textmu": "\u00b5",
    "ie": "i.e.",
    "eg": "e.g.",
    "etal": "et al.",
    "etc": "etc.",
    "wrt": "w.r.t.",
}
# Pseudocode (algorithmicx's algpseudocode, algorithmic, algorithm2e): what each command prints
# on its own line, and what follows its first argument (`\\For{x}` prints `for x do`).
_ALGPSEUDOCODE: dict[str, tuple[str, str]] = {
    "State": ("", ""),
    "Statex": ("", ""),
    "If": ("if ", " then"),
    "uIf": ("if ", " then"),
    "eIf": ("if ", " then"),
    "ElsIf": ("else if ", " then"),
    "uElseIf": ("else if ", " then"),
    "ElseIf": ("else if ", " then"),
    "Else": ("else", ""),
    "uElse": ("else", ""),
    "For": ("for ", " do"),
    "ForAll": ("for all ", " do"),
    "ForEach": ("foreach ", " do"),
    "While": ("while ", " do"),
    "Loop": ("loop", ""),
    "Repeat": ("repeat", ""),
    "Until": ("until ", ""),
    "Return": ("return ", ""),
    "KwRet": ("return ", ""),
    "Require": ("Require: ", ""),
    "Ensure": ("Ensure: ", ""),
    "Input": ("Input: ", ""),
    "Output": ("Output: ", ""),
    "KwIn": ("Input: ", ""),
    "KwOut": ("Output: ", ""),
    "KwData": ("Data: ", ""),
    "KwResult": ("Result: ", ""),
    "EndIf": ("end if", ""),
    "EndFor": ("end for", ""),
    "EndWhile": ("end while", ""),
    "EndLoop": ("end loop", ""),
    "Procedure": ("procedure ", ""),
    "EndProcedure": ("end procedure", ""),
    "Function": ("function ", ""),
    "EndFunction": ("end function", ""),
}
# algorithmic spells these of algpseudocode's commands in capitals (`\\IF`, `\\ENDFOR`)
_ALGORITHMIC: tuple[str, ...] = ("State", "If", "ElsIf", "Else", "For", "ForAll", "While", "Loop", "Repeat")
_ALGORITHMIC += ("Until", "Return", "Require", "Ensure", "EndIf", "EndFor", "EndWhile", "EndLoop")
ALGORITHM_WORDS = {**_ALGPSEUDOCODE, **{name.upper(): _ALGPSEUDOCODE[name] for name in _ALGORITHMIC}}
# LaTeX's size and font switches: they print no text. Old styles redefine them with LaTeX 2.09
# internals (`\\def\\small{\\@setsize\\small{10pt}\\ixpt\\@ixpt}`), whose bodies would print `10pt`.
SIZE_SWITCHES = ("tiny", "scriptsize", "footnotesize", "small", "normalsize", "large", "Large", "LARGE", "huge", "Huge")
FONT_SWITCHES = {
    *SIZE_SWITCHES,
    *("rm", "sf", "tt", "bf", "it", "sl", "sc", "em", "normalfont"),
    *("rmfamily", "sffamily", "ttfamily", "bfseries", "mdseries", "itshape", "slshape", "scshape", "upshape"),
}
# the sizes above the body's, ranked: \large 1 ... \Huge 5
_TITLE_SIZES = {name: rank for rank, name in enumerate(SIZE_SWITCHES[SIZE_SWITCHES.index("normalsize") + 1 :], 1)}
# the fonts a title is set in when the paper has no \\title: bold, small capitals, or a size above the body's
TITLE_FONTS = {*_TITLE_SIZES, "bf", "bfseries", "textbf", "sc", "scshape", "boldmath"}


def title_size(fonts: list[str]) -> int:
    """How big a group set in these fonts prints: the largest size switch among them."""
    return max((_TITLE_SIZES.get(font, 0) for font in fonts), default=0)


CITE_COMMANDS = {
    "cite",
    "citet",
    "citep",
    "citealt",
    "citealp",
    "citeauthor",
    "citeyear",
    "citeyearpar",
    "parencite",
    "textcite",
    "autocite",
    "autocites",
    "footcite",
    "Cite",
    "Citet",
    "Citep",
    "citenum",
    "onlinecite",
    "supercite",
    "smartcite",
    "nocite",
}
# the citations with a starred form (natbib's full author lists), which the tokenizer reads as one name
STARRED_CITES = ("cite", "citet", "citep", "citealt", "citealp", "citeauthor", "citeyear")
CITE_COMMANDS |= {name + "*" for name in STARRED_CITES}
REF_COMMANDS = {
    "ref",
    "eqref",
    "autoref",
    "cref",
    "Cref",
    "pageref",
    "vref",
    "Vref",
    "nameref",
    "Eqref",
    "crefrange",
    "subref",
    "labelcref",
    "fref",
    "Fref",
}


# Classes that print an author line of their own when the source gives none (CMS papers list
# their members in an appendix; the title page names the collaboration).
CLASS_AUTHORS = {"cms-tdr": "The CMS Collaboration", "atlasdoc": "The ATLAS Collaboration"}
# What a class prints before a caption's number when the e-print does not ship the class
# (`\figurename`, `\tablename`); the paper's own definition wins (`source.float_names`).
_FIG = {"Figure": "Fig."}
_REVTEX = {"Figure": "FIG.", "Table": "TABLE"}
CLASS_FLOAT_NAMES = {
    "llncs": _FIG,
    "svjour": _FIG,
    "svjour3": _FIG,
    "aa": _FIG,
    "revtex4": _REVTEX,
    "revtex4-1": _REVTEX,
    "revtex4-2": _REVTEX,
    "IEEEtran": {"Figure": "Fig.", "Table": "TABLE"},
}


# siunitx's commands; a paper's own \\unit or \\num (CMS's `\\unit{m}`) is the paper's, not siunitx's
QUANTITIES: tuple[str, ...] = ("SI", "qty", "si", "unit", "num", "tablenum", "ang", "SIrange", "qtyrange")
QUANTITIES += ("numrange", "SIlist", "qtylist", "numlist")
HEADING_COMMANDS = {
    name + star
    for name in ("part", "chapter", "section", "subsection", "subsubsection", "paragraph", "subparagraph")
    for star in ("", "*")
}
BIBLIOGRAPHY_ENVS = ("thebibliography", "mcitethebibliography")
# Unit macros of HEP packages (atlasunit, heppennames' kin, cms-tdr's ptdr definitions): what they print
# when the paper uses one its e-print does not define (with \\xspace: whether the unknown package
# spaces after them cannot be known, and a lost space joins two words); the paper's own definition wins.
_ENERGIES = [f"{prefix}eV" for prefix in ("", "k", "M", "G", "T", "P")]
_LUMINOSITIES = [f"{prefix}b" for prefix in ("a", "f", "p", "n")]
_UNIT_SYMBOLS = {
    **{unit: unit for unit in _ENERGIES},
    **{unit + "c": unit + "}/c" for unit in _ENERGIES},
    **{unit + "cc": unit + "}/c^2" for unit in _ENERGIES},
    **{name: unit + "}^{-1}" for unit in _LUMINOSITIES for name in ("i" + unit, unit + "inv", "inv" + unit)},
}
UNIT_MACROS = {
    name: "\\ensuremath{\\text{" + symbol + ("}" if "}" not in symbol else "") + "}\\xspace"
    for name, symbol in _UNIT_SYMBOLS.items()
}
# Particle names of hepnames/heppennames (ATLAS's atlashepparticle builds on them, and the e-print
# does not ship them): \\P, `a` for the antiparticle, the symbol (`g` + a letter for a Greek one:
# `gm` mu, `gp` pi), then the charge (`p` +, `m` -, `pm`, `z` 0). Like UNIT_MACROS, a stand-in for
# when the paper has no definition of its own.
_CHARGES = {"": "", "p": "^+", "m": "^-", "pm": "^\\pm", "z": "^0"}
_CHARGED = {
    "e": "e",
    "gm": "\\mu",
    "gt": "\\tau",
    "l": "\\ell",
    "gp": "\\pi",
    "K": "K",
    "D": "D",
    "B": "B",
    "W": "W",
    "H": "H",
}
_NEUTRAL = {
    **{"q" + quark: quark for quark in "udscbt"},
    "q": "q",
    "gn": "\\nu",
    "gne": "\\nu_e",
    "gngm": "\\nu_\\mu",
    "gngt": "\\nu_\\tau",
    "p": "p",
    "n": "n",
    "gL": "\\Lambda",
}
PARTICLE_SYMBOLS = {
    **{f"P{name}{charge}": symbol + sign for name, symbol in _CHARGED.items() for charge, sign in _CHARGES.items()},
    **{f"P{name}": symbol for name, symbol in _NEUTRAL.items()},
    **{f"Pa{name}": f"\\bar{{{symbol}}}" for name, symbol in _NEUTRAL.items()},
    "PJgy": "J/\\psi",
    "Pgy": "\\psi",
    "PgU": "\\Upsilon",
    "Pgf": "\\phi",
    "Pgh": "\\eta",
    "Pgr": "\\rho",
    "Pgo": "\\omega",
    "Pgg": "\\gamma",
    "Pg": "g",
    "PZ": "Z",
    "PKzS": "K^0_S",
    "PKzL": "K^0_L",
    **{f"P{meson}s{charge}": f"{meson}_s{sign}" for meson in "BD" for charge, sign in _CHARGES.items()},
    **{f"PBc{charge}": f"B_c{sign}" for charge, sign in _CHARGES.items()},
}
PARTICLE_MACROS = {name: "\\ensuremath{" + symbol + "}\\xspace" for name, symbol in PARTICLE_SYMBOLS.items()}
# Journal abbreviations of the AAS macros (aastex, mnras, aa: `\\apj` in a .bbl prints ApJ). The
# classes define them through their own internals (aastex631's `\\ref@jnl{ApJ}`), so these stand in
# unless the paper's own files define the name.
JOURNAL_MACROS = {
    "aj": "AJ",
    "actaa": "Acta Astron.",
    "araa": "ARA\\&A",
    "apj": "ApJ",
    "apjl": "ApJL",
    "apjs": "ApJS",
    "ao": "Appl. Opt.",
    "apss": "Ap\\&SS",
    "aap": "A\\&A",
    "aapr": "A\\&A Rev.",
    "aaps": "A\\&AS",
    "azh": "AZh",
    "baas": "BAAS",
    "icarus": "Icarus",
    "jcap": "JCAP",
    "jrasc": "JRASC",
    "memras": "MmRAS",
    "mnras": "MNRAS",
    "na": "New A",
    "nar": "New A Rev.",
    "pra": "Phys. Rev. A",
    "prb": "Phys. Rev. B",
    "prc": "Phys. Rev. C",
    "prd": "Phys. Rev. D",
    "pre": "Phys. Rev. E",
    "prl": "Phys. Rev. Lett.",
    "pasa": "PASA",
    "pasp": "PASP",
    "pasj": "PASJ",
    "qjras": "QJRAS",
    "skytel": "S\\&T",
    "solphys": "Sol. Phys.",
    "sovast": "Soviet Ast.",
    "ssr": "Space Sci. Rev.",
    "zap": "ZAp",
    "nat": "Nature",
    "iaucirc": "IAU Circ.",
    "aplett": "Astrophys. Lett.",
    "physrep": "Phys. Rep.",
    "physscr": "Phys. Scr",
    "planss": "Planet. Space Sci.",
    "procspie": "Proc. SPIE",
}
# Templates of widely used packages whose own definitions cannot be read without running TeX
# (hepparticles' \HepParticle tests \ifx and shifts kerning): the paper's usable definition wins;
# these stand in when it has none or an unusable one. name -> (arguments, body).
PACKAGE_TEMPLATES = {
    "HepParticle": (3, r"\ensuremath{{#1}_{#2}^{#3}}"),
    "HepAntiParticle": (3, r"\ensuremath{\overline{#1}_{#2}^{#3}}"),
    "HepGenParticle": (3, r"\ensuremath{{#1}_{#2}^{#3}}"),
    "HepGenAntiParticle": (3, r"\ensuremath{\overline{#1}_{#2}^{#3}}"),
    "HepSusyParticle": (3, r"\ensuremath{\tilde{#1}_{#2}^{#3}}"),
    "HepSusyAntiParticle": (3, r"\ensuremath{\overline{\tilde{#1}}_{#2}^{#3}}"),
    "HepProcess": (1, r"\ensuremath{#1}"),
    # IEEEtran's author blocks: names, then each address; in the author line, items of one list
    "IEEEauthorblockN": (1, r"#1\\"),
    "IEEEauthorblockA": (1, r"#1\\"),
    "IEEEauthorrefmark": (1, r"\ensuremath{^{#1}}"),
    # mciteplus (LHCb.bst): each entry states its (mid, end, separator) punctuation; the end one prints
    "mciteSetBstMidEndSepPunct": (3, "#2"),
    # jheppub/jcappub: `\\author[a]{A. Name,\\note{ORCID: ...}}` prints a footnote of the title page
    "note": (1, r"\thanks{#1}"),
}
