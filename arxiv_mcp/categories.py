"""The bundled arXiv taxonomy, so category questions never cost an upstream request.

Names and ids follow arXiv's current taxonomy; the descriptions are our own one-line
summaries. Also knows the archive names that pre-2007 ids (``hep-th/9901001``,
``math.GT/0309136``) may carry, for validating old-style ids.
"""

import difflib
import re
from dataclasses import dataclass

from .errors import InvalidInput

COMPUTER_SCIENCE = "Computer Science"
ECONOMICS = "Economics"
EESS = "Electrical Engineering and Systems Science"
MATHEMATICS = "Mathematics"
PHYSICS = "Physics"
QUANTITATIVE_BIOLOGY = "Quantitative Biology"
QUANTITATIVE_FINANCE = "Quantitative Finance"
STATISTICS = "Statistics"

GROUPS: tuple[str, ...] = (
    COMPUTER_SCIENCE,
    ECONOMICS,
    EESS,
    MATHEMATICS,
    PHYSICS,
    QUANTITATIVE_BIOLOGY,
    QUANTITATIVE_FINANCE,
    STATISTICS,
)

# Current archive -> the group it belongs to. Standalone archives (gr-qc, hep-th, ...)
# are both an archive and the single category inside it.
ARCHIVE_GROUPS: dict[str, str] = {
    "cs": COMPUTER_SCIENCE,
    "econ": ECONOMICS,
    "eess": EESS,
    "math": MATHEMATICS,
    "astro-ph": PHYSICS,
    "cond-mat": PHYSICS,
    "gr-qc": PHYSICS,
    "hep-ex": PHYSICS,
    "hep-lat": PHYSICS,
    "hep-ph": PHYSICS,
    "hep-th": PHYSICS,
    "math-ph": PHYSICS,
    "nlin": PHYSICS,
    "nucl-ex": PHYSICS,
    "nucl-th": PHYSICS,
    "physics": PHYSICS,
    "quant-ph": PHYSICS,
    "q-bio": QUANTITATIVE_BIOLOGY,
    "q-fin": QUANTITATIVE_FINANCE,
    "stat": STATISTICS,
}


@dataclass(frozen=True)
class Category:
    id: str
    name: str
    group: str
    description: str


# (id, official name, our own short description); ids sorted within each archive.
_TAXONOMY: tuple[tuple[str, str, str], ...] = (
    # Computer Science
    (
        "cs.AI",
        "Artificial Intelligence",
        "Reasoning, planning, knowledge representation, search and other AI topics not covered by the ML, vision, NLP, robotics or agent classes.",
    ),
    (
        "cs.AR",
        "Hardware Architecture",
        "Design and organization of processors, memory systems, accelerators and other computer hardware.",
    ),
    (
        "cs.CC",
        "Computational Complexity",
        "Complexity classes, models of computation, and upper and lower bounds on the resources problems require.",
    ),
    (
        "cs.CE",
        "Computational Engineering, Finance, and Science",
        "Computational modelling and large-scale simulation of problems from engineering, the natural sciences and finance.",
    ),
    (
        "cs.CG",
        "Computational Geometry",
        "Algorithms and data structures for geometric objects such as points, polygons, meshes and arrangements.",
    ),
    (
        "cs.CL",
        "Computation and Language",
        "Natural language processing and computational linguistics: language models, parsing, translation and text understanding.",
    ),
    (
        "cs.CR",
        "Cryptography and Security",
        "Cryptographic schemes and protocols, authentication, privacy, and the security of systems, software and networks.",
    ),
    (
        "cs.CV",
        "Computer Vision and Pattern Recognition",
        "Image and video understanding: recognition, detection, segmentation, 3D reconstruction and visual pattern recognition.",
    ),
    (
        "cs.CY",
        "Computers and Society",
        "Social, ethical, legal, educational and policy aspects of computing and information technology.",
    ),
    (
        "cs.DB",
        "Databases",
        "Data management: query processing, storage, transactions, data integration and data mining.",
    ),
    (
        "cs.DC",
        "Distributed, Parallel, and Cluster Computing",
        "Distributed algorithms, parallel, cluster and cloud computing, and fault-tolerant systems.",
    ),
    (
        "cs.DL",
        "Digital Libraries",
        "Digital library systems, scholarly communication, document collections and bibliometrics.",
    ),
    (
        "cs.DM",
        "Discrete Mathematics",
        "Combinatorics, graph theory and probabilistic methods as they arise in computer science.",
    ),
    (
        "cs.DS",
        "Data Structures and Algorithms",
        "Design and analysis of algorithms and data structures, including approximation, online and randomized algorithms.",
    ),
    (
        "cs.ET",
        "Emerging Technologies",
        "Computing and communication built on non-CMOS technologies such as nanoscale, photonic, spintronic, molecular or quantum devices.",
    ),
    (
        "cs.FL",
        "Formal Languages and Automata Theory",
        "Automata, grammars, formal language theory and combinatorics on words.",
    ),
    (
        "cs.GL",
        "General Literature",
        "Introductory texts, surveys, biographies, forecasts and other general writing about computer science.",
    ),
    ("cs.GR", "Graphics", "Computer graphics: rendering, geometric modelling, animation and visualization."),
    (
        "cs.GT",
        "Computer Science and Game Theory",
        "Algorithmic game theory, mechanism design, learning in games and other meeting points of computing and strategic behaviour.",
    ),
    (
        "cs.HC",
        "Human-Computer Interaction",
        "User interfaces, human factors, interaction design, usability studies and collaborative computing.",
    ),
    (
        "cs.IR",
        "Information Retrieval",
        "Search engines, indexing, ranking, recommender systems and the analysis of document content.",
    ),
    (
        "cs.IT",
        "Information Theory",
        "Theoretical and applied information theory: channel capacity, coding, compression and limits of communication.",
    ),
    (
        "cs.LG",
        "Machine Learning",
        "All areas of machine learning research (supervised, unsupervised, reinforcement, deep learning) and its applications.",
    ),
    (
        "cs.LO",
        "Logic in Computer Science",
        "Logics for computing: finite model theory, modal and temporal logic, program semantics and formal verification.",
    ),
    (
        "cs.MA",
        "Multiagent Systems",
        "Systems of interacting autonomous agents, distributed AI, coordination and agent-based applications.",
    ),
    ("cs.MM", "Multimedia", "Multimedia information systems that combine audio, video, images and text."),
    (
        "cs.MS",
        "Mathematical Software",
        "Design, implementation and evaluation of software libraries and tools for mathematical computation.",
    ),
    ("cs.NA", "Numerical Analysis", "Numerical methods and their analysis; an alias of math.NA."),
    (
        "cs.NE",
        "Neural and Evolutionary Computing",
        "Neural networks, evolutionary and genetic algorithms, artificial life and other nature-inspired computation.",
    ),
    (
        "cs.NI",
        "Networking and Internet Architecture",
        "Computer networks: architectures, protocols, wireless and mobile networking, Internet measurement and performance.",
    ),
    ("cs.OH", "Other Computer Science", "Computer science work that fits none of the other cs categories."),
    (
        "cs.OS",
        "Operating Systems",
        "Operating system design: kernels, scheduling, memory and file systems, virtualization.",
    ),
    (
        "cs.PF",
        "Performance",
        "Measuring, modelling and evaluating the performance of computer systems, including queueing models and simulation.",
    ),
    (
        "cs.PL",
        "Programming Languages",
        "Language design and semantics, type systems, programming paradigms and compilers.",
    ),
    (
        "cs.RO",
        "Robotics",
        "Robot perception, motion planning, control, manipulation and locomotion, and embodied autonomous systems.",
    ),
    (
        "cs.SC",
        "Symbolic Computation",
        "Computer algebra: symbolic manipulation of formulas and polynomials and exact algorithms.",
    ),
    (
        "cs.SD",
        "Sound",
        "Computing with sound: audio analysis and synthesis, computer music, and sound in user interfaces.",
    ),
    (
        "cs.SE",
        "Software Engineering",
        "Building and maintaining software: requirements, design, testing, debugging, tooling and software metrics.",
    ),
    (
        "cs.SI",
        "Social and Information Networks",
        "Analysis and modelling of social and information networks, information diffusion and online communities.",
    ),
    ("cs.SY", "Systems and Control", "Control theory and systems engineering; an alias of eess.SY."),
    # Economics
    (
        "econ.EM",
        "Econometrics",
        "Statistical and econometric methods for estimating and testing economic relationships from data.",
    ),
    ("econ.GN", "General Economics", "Applied, empirical and methodological work across all fields of economics."),
    (
        "econ.TH",
        "Theoretical Economics",
        "Economic theory: decisions and games, mechanism and market design, social choice and general equilibrium.",
    ),
    # Electrical Engineering and Systems Science
    (
        "eess.AS",
        "Audio and Speech Processing",
        "Signal processing for audio, speech and spoken language: recognition, enhancement, synthesis and music analysis.",
    ),
    (
        "eess.IV",
        "Image and Video Processing",
        "Acquisition, restoration, compression and analysis of images, video and other multidimensional signals; computational imaging.",
    ),
    (
        "eess.SP",
        "Signal Processing",
        "Theory and algorithms for processing signals: estimation, filtering, sampling, communications, radar and sensor arrays.",
    ),
    (
        "eess.SY",
        "Systems and Control",
        "Analysis and design of control systems: robust, adaptive, nonlinear, networked and hybrid control and their uses.",
    ),
    # Mathematics
    (
        "math.AC",
        "Commutative Algebra",
        "Commutative rings, ideals and modules, homological methods and their links to algebraic geometry.",
    ),
    (
        "math.AG",
        "Algebraic Geometry",
        "Algebraic varieties, schemes, stacks, sheaves and moduli spaces, and complex algebraic geometry.",
    ),
    (
        "math.AP",
        "Analysis of PDEs",
        "Partial differential equations: existence, uniqueness, regularity, stability and qualitative behaviour of solutions.",
    ),
    (
        "math.AT",
        "Algebraic Topology",
        "Homotopy theory, homology and cohomology theories, and algebraic invariants of spaces.",
    ),
    (
        "math.CA",
        "Classical Analysis and ODEs",
        "Real and harmonic analysis, special functions, orthogonal polynomials, ordinary differential equations and asymptotics.",
    ),
    (
        "math.CO",
        "Combinatorics",
        "Enumerative, algebraic and extremal combinatorics, graph theory and other discrete structures.",
    ),
    (
        "math.CT",
        "Category Theory",
        "Categories and functors, higher and enriched categories, topoi and monoidal structures.",
    ),
    (
        "math.CV",
        "Complex Variables",
        "Holomorphic functions of one and several complex variables and complex analytic spaces.",
    ),
    (
        "math.DG",
        "Differential Geometry",
        "Riemannian, complex, contact and other geometric structures on smooth manifolds, and geometric analysis.",
    ),
    (
        "math.DS",
        "Dynamical Systems",
        "Iterated maps and flows, ergodic theory, bifurcations, chaos and complex dynamics.",
    ),
    (
        "math.FA",
        "Functional Analysis",
        "Banach and Hilbert spaces, function spaces, operators, distributions and measure theory.",
    ),
    ("math.GM", "General Mathematics", "Mathematics of general interest that fits no more specific math category."),
    ("math.GN", "General Topology", "Point-set topology, continua, dimension theory and topological structures."),
    ("math.GR", "Group Theory", "Finite, infinite, geometric and topological groups and their structure."),
    (
        "math.GT",
        "Geometric Topology",
        "Low-dimensional topology, knots, manifolds, foliations and geometric structures on them.",
    ),
    (
        "math.HO",
        "History and Overview",
        "History and philosophy of mathematics, mathematics education, expository and recreational pieces.",
    ),
    ("math.IT", "Information Theory", "Information theory and coding; an alias of cs.IT."),
    ("math.KT", "K-Theory and Homology", "Algebraic and topological K-theory, cyclic homology and related invariants."),
    ("math.LO", "Logic", "Mathematical logic: set theory, model theory, proof theory, computability and foundations."),
    ("math.MG", "Metric Geometry", "Euclidean, hyperbolic, convex, discrete and coarse geometry, and metric spaces."),
    ("math.MP", "Mathematical Physics", "Mathematically rigorous treatment of physical theories; an alias of math-ph."),
    (
        "math.NA",
        "Numerical Analysis",
        "Design and analysis of numerical algorithms for continuous problems and scientific computing.",
    ),
    (
        "math.NT",
        "Number Theory",
        "Analytic, algebraic and arithmetic number theory, Diophantine problems and modular forms.",
    ),
    ("math.OA", "Operator Algebras", "C*-algebras, von Neumann algebras and noncommutative geometry."),
    (
        "math.OC",
        "Optimization and Control",
        "Mathematical optimization, operations research, optimal control and control theory.",
    ),
    ("math.PR", "Probability", "Probability theory and stochastic processes, random structures and limit theorems."),
    (
        "math.QA",
        "Quantum Algebra",
        "Quantum groups, Hopf algebras, operads and algebraic structures arising from quantum field theory.",
    ),
    (
        "math.RA",
        "Rings and Algebras",
        "Noncommutative and nonassociative rings and algebras, linear algebra, semigroups and universal algebra.",
    ),
    ("math.RT", "Representation Theory", "Representations of groups, Lie algebras and associative algebras."),
    ("math.SG", "Symplectic Geometry", "Symplectic and contact manifolds, Hamiltonian dynamics and Floer theory."),
    (
        "math.SP",
        "Spectral Theory",
        "Spectra of differential and other operators, Schroedinger operators, resonances and random matrices.",
    ),
    (
        "math.ST",
        "Statistics Theory",
        "Mathematical statistics: estimation, hypothesis testing, asymptotics and the theory of inference.",
    ),
    # Physics: astrophysics
    (
        "astro-ph.CO",
        "Cosmology and Nongalactic Astrophysics",
        "The early universe, cosmic microwave background, dark matter and dark energy, and large-scale structure.",
    ),
    (
        "astro-ph.EP",
        "Earth and Planetary Astrophysics",
        "Planets and exoplanets, the solar system and its small bodies, and planet formation.",
    ),
    (
        "astro-ph.GA",
        "Astrophysics of Galaxies",
        "Galaxies and the Milky Way: structure, formation, interstellar medium, star clusters and active nuclei.",
    ),
    (
        "astro-ph.HE",
        "High Energy Astrophysical Phenomena",
        "Cosmic rays, gamma-ray and X-ray sources, supernovae, neutron stars, black holes and relativistic jets.",
    ),
    (
        "astro-ph.IM",
        "Instrumentation and Methods for Astrophysics",
        "Telescopes, detectors, observing techniques, data analysis methods and software for astronomy.",
    ),
    (
        "astro-ph.SR",
        "Solar and Stellar Astrophysics",
        "The Sun and stars: structure, evolution, star formation, binaries and stellar remnants.",
    ),
    # Physics: condensed matter
    (
        "cond-mat.dis-nn",
        "Disordered Systems and Neural Networks",
        "Glassy and disordered systems, localization, random media, and neural networks studied with physics methods.",
    ),
    (
        "cond-mat.mes-hall",
        "Mesoscale and Nanoscale Physics",
        "Electrons in nanostructures: quantum dots and wires, 2D materials, quantum Hall effects and spintronics.",
    ),
    (
        "cond-mat.mtrl-sci",
        "Materials Science",
        "Synthesis, structure, defects and the mechanical, electronic or thermal properties of materials.",
    ),
    (
        "cond-mat.other",
        "Other Condensed Matter",
        "Condensed matter research that fits none of the other cond-mat categories.",
    ),
    (
        "cond-mat.quant-gas",
        "Quantum Gases",
        "Ultracold atoms and molecules, Bose-Einstein condensates, optical lattices and quantum simulation.",
    ),
    (
        "cond-mat.soft",
        "Soft Condensed Matter",
        "Polymers, colloids, liquid crystals, membranes, foams and granular materials.",
    ),
    (
        "cond-mat.stat-mech",
        "Statistical Mechanics",
        "Phase transitions, critical phenomena, nonequilibrium and stochastic dynamics, and thermodynamics.",
    ),
    (
        "cond-mat.str-el",
        "Strongly Correlated Electrons",
        "Quantum magnetism, correlated metals and insulators, spin liquids and quantum criticality.",
    ),
    ("cond-mat.supr-con", "Superconductivity", "Theory and experiment on superconductors and superfluids."),
    # Physics: standalone archives
    (
        "gr-qc",
        "General Relativity and Quantum Cosmology",
        "Gravitation: general relativity, gravitational waves, alternative theories of gravity, quantum gravity and cosmology.",
    ),
    (
        "hep-ex",
        "High Energy Physics - Experiment",
        "Results and prospects of particle physics experiments at colliders and elsewhere.",
    ),
    (
        "hep-lat",
        "High Energy Physics - Lattice",
        "Lattice formulations of quantum field theory, lattice QCD, and the numerical methods behind them.",
    ),
    (
        "hep-ph",
        "High Energy Physics - Phenomenology",
        "Theoretical particle physics confronted with experiment: models, predictions and effective field theories.",
    ),
    (
        "hep-th",
        "High Energy Physics - Theory",
        "Formal quantum field theory, string theory, supersymmetry and supergravity.",
    ),
    (
        "math-ph",
        "Mathematical Physics",
        "Mathematical methods for physics and rigorous formulations of physical theories.",
    ),
    (
        "nucl-ex",
        "Nuclear Experiment",
        "Experimental nuclear physics, including heavy-ion collisions and measurements of nuclear structure.",
    ),
    (
        "nucl-th",
        "Nuclear Theory",
        "Theory of nuclear structure, nuclear reactions, nuclear matter and hadronic physics.",
    ),
    (
        "quant-ph",
        "Quantum Physics",
        "Quantum mechanics, quantum information and computing, quantum optics and the foundations of quantum theory.",
    ),
    # Physics: nonlinear sciences
    (
        "nlin.AO",
        "Adaptation and Self-Organizing Systems",
        "Adaptation, self-organization and collective behaviour in complex and stochastic systems.",
    ),
    (
        "nlin.CD",
        "Chaotic Dynamics",
        "Chaos in classical and quantum systems, nonlinear dynamical systems and turbulence.",
    ),
    (
        "nlin.CG",
        "Cellular Automata and Lattice Gases",
        "Cellular automata, lattice gas models and related discrete computational models.",
    ),
    (
        "nlin.PS",
        "Pattern Formation and Solitons",
        "Pattern formation, coherent structures and solitary waves in nonlinear systems.",
    ),
    (
        "nlin.SI",
        "Exactly Solvable and Integrable Systems",
        "Integrable differential and difference equations, solvable lattice models and integrable quantum systems.",
    ),
    # Physics: physics.*
    (
        "physics.acc-ph",
        "Accelerator Physics",
        "Particle accelerators and beams: design, simulation, technology and radiation sources.",
    ),
    ("physics.ao-ph", "Atmospheric and Oceanic Physics", "Physics of the atmosphere and oceans, weather and climate."),
    (
        "physics.app-ph",
        "Applied Physics",
        "Physics applied to technology: devices, photonics, metamaterials, nanotechnology and energy.",
    ),
    (
        "physics.atm-clus",
        "Atomic and Molecular Clusters",
        "Clusters and nanoparticles: their structure, spectroscopy and interactions with light.",
    ),
    (
        "physics.atom-ph",
        "Atomic Physics",
        "Structure, spectra and collisions of atoms and molecules, cold atoms, and control with external fields.",
    ),
    (
        "physics.bio-ph",
        "Biological Physics",
        "Physics of living systems, from biomolecules and cells to organisms and populations.",
    ),
    (
        "physics.chem-ph",
        "Chemical Physics",
        "Physics of molecules and chemical processes: electronic structure, spectroscopy and reaction dynamics.",
    ),
    (
        "physics.class-ph",
        "Classical Physics",
        "Classical mechanics, electromagnetism, waves, acoustics, elasticity and thermodynamics.",
    ),
    (
        "physics.comp-ph",
        "Computational Physics",
        "Numerical methods and simulation techniques for problems in physics.",
    ),
    (
        "physics.data-an",
        "Data Analysis, Statistics and Probability",
        "Statistical methods, data processing and uncertainty analysis for physics measurements.",
    ),
    (
        "physics.ed-ph",
        "Physics Education",
        "Research on teaching and learning physics, curricula and classroom practice.",
    ),
    (
        "physics.flu-dyn",
        "Fluid Dynamics",
        "Flows of liquids and gases: turbulence, instabilities, multiphase and complex fluids.",
    ),
    ("physics.gen-ph", "General Physics", "Physics papers that fit no more specific category."),
    (
        "physics.geo-ph",
        "Geophysics",
        "Physics of the Earth and planets: seismology, solid-earth, hydrospheric and magnetospheric geophysics.",
    ),
    (
        "physics.hist-ph",
        "History and Philosophy of Physics",
        "History and philosophy of physics, astronomy and cosmology, and the lives of physicists.",
    ),
    (
        "physics.ins-det",
        "Instrumentation and Detectors",
        "Instruments, detectors and their electronics for experiments in physics and other natural sciences.",
    ),
    ("physics.med-ph", "Medical Physics", "Physics in medicine: medical imaging, radiation therapy and dosimetry."),
    (
        "physics.optics",
        "Optics",
        "Light and its interactions: lasers, photonics, nonlinear, quantum and ultrafast optics, and optical imaging.",
    ),
    (
        "physics.plasm-ph",
        "Plasma Physics",
        "Laboratory, fusion, space and astrophysical plasmas and their diagnostics.",
    ),
    ("physics.pop-ph", "Popular Physics", "Physics written for a general audience."),
    (
        "physics.soc-ph",
        "Physics and Society",
        "Physics methods applied to social systems, complex networks and infrastructure such as transport or power grids.",
    ),
    (
        "physics.space-ph",
        "Space Physics",
        "Space plasmas, heliophysics, space weather, magnetospheres and ionospheres.",
    ),
    # Quantitative Biology
    (
        "q-bio.BM",
        "Biomolecules",
        "Structure, folding, dynamics and interactions of DNA, RNA, proteins and other biomolecules.",
    ),
    (
        "q-bio.CB",
        "Cell Behavior",
        "How cells signal, interact, develop and respond, including immunology and host-pathogen interaction.",
    ),
    ("q-bio.GN", "Genomics", "Sequencing, genome assembly and annotation, gene finding and genome-scale processes."),
    ("q-bio.MN", "Molecular Networks", "Gene regulatory, signalling and metabolic networks, and systems biology."),
    (
        "q-bio.NC",
        "Neurons and Cognition",
        "Neuroscience from single neurons to circuits: brain dynamics, perception, behaviour and cognition.",
    ),
    ("q-bio.OT", "Other Quantitative Biology", "Quantitative biology that fits none of the other q-bio categories."),
    (
        "q-bio.PE",
        "Populations and Evolution",
        "Population dynamics, epidemiology, ecology, evolution and phylogenetics.",
    ),
    ("q-bio.QM", "Quantitative Methods", "Experimental, computational and statistical methods for biology."),
    (
        "q-bio.SC",
        "Subcellular Processes",
        "Molecular motors, cytoskeleton, organelles, transport and other processes inside cells.",
    ),
    (
        "q-bio.TO",
        "Tissues and Organs",
        "Physiology and modelling of tissues and organs, such as blood flow, biomechanics and tumour growth.",
    ),
    # Quantitative Finance
    (
        "q-fin.CP",
        "Computational Finance",
        "Numerical methods for finance such as Monte Carlo, PDE and lattice methods.",
    ),
    ("q-fin.EC", "Economics", "Economics outside finance; an alias of econ.GN."),
    ("q-fin.GN", "General Finance", "General quantitative methods and studies in finance."),
    ("q-fin.MF", "Mathematical Finance", "Mathematical and stochastic models of financial markets and instruments."),
    (
        "q-fin.PM",
        "Portfolio Management",
        "Asset allocation, portfolio optimization, investment strategies and performance measurement.",
    ),
    ("q-fin.PR", "Pricing of Securities", "Valuation and hedging of securities, derivatives and structured products."),
    ("q-fin.RM", "Risk Management", "Measuring and managing financial risk in markets, banking and insurance."),
    (
        "q-fin.ST",
        "Statistical Finance",
        "Statistical, econometric and econophysics analysis of financial and economic data.",
    ),
    (
        "q-fin.TR",
        "Trading and Market Microstructure",
        "Market microstructure, liquidity, order books, exchanges, algorithmic trading and market making.",
    ),
    # Statistics
    (
        "stat.AP",
        "Applications",
        "Statistics applied to biology, medicine, engineering, the social and physical sciences and other fields.",
    ),
    ("stat.CO", "Computation", "Statistical computing: algorithms, Monte Carlo simulation and visualization."),
    (
        "stat.ME",
        "Methodology",
        "New statistical methods: study design, model selection, multiple testing, time series and survival analysis.",
    ),
    (
        "stat.ML",
        "Machine Learning",
        "Machine learning with a statistical or theoretical grounding, including graphical models and high-dimensional inference.",
    ),
    ("stat.OT", "Other Statistics", "Statistics work that fits none of the other stat categories."),
    ("stat.TH", "Statistics Theory", "Theory of statistical inference; an alias of math.ST."),
)


def archive_of(cat_id: str) -> str:
    """The archive part of a category id: "cs" for "cs.AI", "hep-th" for "hep-th"."""
    return cat_id.split(".", 1)[0]


CATEGORIES: dict[str, Category] = {
    cat_id: Category(cat_id, name, ARCHIVE_GROUPS[archive_of(cat_id)], description)
    for cat_id, name, description in _TAXONOMY
}

# Every archive that appears before the slash of an old-style id (1991 to March 2007),
# its name, and where its papers are classified now. stat, q-fin, econ and eess only
# began after the switch to YYMM.NNNNN ids, so they never occur in old-style ids.
_LEGACY: tuple[tuple[str, str, str], ...] = (
    ("acc-phys", "Accelerator Physics", "now physics.acc-ph"),
    ("adap-org", "Adaptation, Noise, and Self-Organizing Systems", "now nlin.AO"),
    ("alg-geom", "Algebraic Geometry", "now math.AG"),
    ("ao-sci", "Atmospheric-Oceanic Sciences", "now physics.ao-ph"),
    ("astro-ph", "Astrophysics", "still current, split into astro-ph.* categories"),
    ("atom-ph", "Atomic, Molecular and Optical Physics", "now physics.atom-ph"),
    ("bayes-an", "Bayesian Analysis", "now physics.data-an"),
    ("chao-dyn", "Chaotic Dynamics", "now nlin.CD"),
    ("chem-ph", "Chemical Physics", "now physics.chem-ph"),
    ("cmp-lg", "Computation and Language", "now cs.CL"),
    ("comp-gas", "Cellular Automata and Lattice Gases", "now nlin.CG"),
    ("cond-mat", "Condensed Matter", "still current, split into cond-mat.* categories"),
    ("cs", "Computer Science", "still current, split into cs.* categories"),
    ("dg-ga", "Differential Geometry", "now math.DG"),
    ("funct-an", "Functional Analysis", "now math.FA"),
    ("gr-qc", "General Relativity and Quantum Cosmology", "still current as gr-qc"),
    ("hep-ex", "High Energy Physics - Experiment", "still current as hep-ex"),
    ("hep-lat", "High Energy Physics - Lattice", "still current as hep-lat"),
    ("hep-ph", "High Energy Physics - Phenomenology", "still current as hep-ph"),
    ("hep-th", "High Energy Physics - Theory", "still current as hep-th"),
    ("math", "Mathematics", "still current, split into math.* categories"),
    ("math-ph", "Mathematical Physics", "still current as math-ph"),
    ("mtrl-th", "Materials Theory", "now cond-mat.mtrl-sci"),
    ("nlin", "Nonlinear Sciences", "still current, split into nlin.* categories"),
    ("nucl-ex", "Nuclear Experiment", "still current as nucl-ex"),
    ("nucl-th", "Nuclear Theory", "still current as nucl-th"),
    ("patt-sol", "Pattern Formation and Solitons", "now nlin.PS"),
    ("physics", "Physics", "still current, split into physics.* categories"),
    ("plasm-ph", "Plasma Physics", "now physics.plasm-ph"),
    ("q-alg", "Quantum Algebra and Topology", "now math.QA"),
    ("q-bio", "Quantitative Biology", "still current, split into q-bio.* categories"),
    ("quant-ph", "Quantum Physics", "still current as quant-ph"),
    ("solv-int", "Exactly Solvable and Integrable Systems", "now nlin.SI"),
    ("supr-con", "Superconductivity", "now cond-mat.supr-con"),
)

LEGACY_ARCHIVES: dict[str, str] = {archive: f"{name} ({fate})" for archive, name, fate in _LEGACY}

# Subject classes an old-style id may carry after its archive, as in math.GT/0309136:
# the modern categories of that archive ("GT" for math, "optics" for physics).
LEGACY_SUBJECT_CLASSES: dict[str, frozenset[str]] = {
    archive: frozenset(cat_id.split(".", 1)[1] for cat_id in CATEGORIES if cat_id.startswith(archive + "."))
    for archive in LEGACY_ARCHIVES
    if any(cat_id.startswith(archive + ".") for cat_id in CATEGORIES)
}

_IDS_BY_LOWER: dict[str, str] = {cat_id.lower(): cat_id for cat_id in CATEGORIES}
_ARCHIVES_BY_LOWER: dict[str, str] = {archive.lower(): archive for archive in ARCHIVE_GROUPS}
_GROUPS_BY_LOWER: dict[str, str] = {group.lower(): group for group in GROUPS}
_IDS_BY_LOWER_NAME: dict[str, list[str]] = {}
for _category in CATEGORIES.values():  # one pass: this runs at every start-up
    _IDS_BY_LOWER_NAME.setdefault(_category.name.lower(), []).append(_category.id)
del _category

# Everyday abbreviations that neither ids nor names spell out.
_INFORMAL_NAMES: dict[str, tuple[str, ...]] = {
    "ai": ("cs.AI",),
    "ml": ("cs.LG", "stat.ML"),
    "nlp": ("cs.CL",),
    "llm": ("cs.CL", "cs.LG"),
    "llms": ("cs.CL", "cs.LG"),
    "rl": ("cs.LG",),
    "hci": ("cs.HC",),
    "qft": ("hep-th",),
    "qcd": ("hep-ph", "hep-lat"),
    "pde": ("math.AP",),
    "pdes": ("math.AP",),
    "ode": ("math.CA",),
    "odes": ("math.CA",),
}

_MINOR_WORDS = frozenset({"and", "of", "the", "for", "in", "to", "on", "with", "a", "an", "-"})
_WORD = re.compile(r"[a-z0-9]+")


def is_category(cat_id: str) -> bool:
    """Exact, case-sensitive test against the current taxonomy ("cs.AI" yes, "cs.ai" no)."""
    return cat_id in CATEGORIES


def is_legacy_archive(archive: str) -> bool:
    """Whether `archive` may stand before the slash of an old-style id (exact, lower case)."""
    return archive in LEGACY_ARCHIVES


def is_legacy_subject_class(archive: str, subject_class: str) -> bool:
    """Whether `archive.subject_class/YYMMNNN` names a real subject class (exact case)."""
    return subject_class in LEGACY_SUBJECT_CLASSES.get(archive, frozenset())


def get_category(cat_id: str) -> Category:
    """The category with this id, matched case-insensitively ("cs.ai" finds cs.AI)."""
    found = _IDS_BY_LOWER.get(cat_id.strip().lower()) if isinstance(cat_id, str) else None
    if found is not None:
        return CATEGORIES[found]
    raise InvalidInput(_unknown_category_message(cat_id))


def cat_terms(value: str) -> list[str]:
    """The `cat:` terms that search a category id (cs.AI, any case) or a whole archive.

    An archive (astro-ph, cs, cond-mat) means its own name, which papers from before the
    archive was split carry (astro-ph until 2009), and every category in it. arXiv's `cat:`
    takes a trailing `*` (`cat:astro-ph*`, as clients of the API use it), which covers both
    in one term; where another archive shares the prefix (math* would also match math-ph)
    the categories are listed instead. A legacy archive (solv-int) is its own name."""
    text = value.strip() if isinstance(value, str) else ""
    lowered = text.lower().removesuffix("*").removesuffix(".")
    if lowered in _IDS_BY_LOWER and lowered == text.lower():
        return [_IDS_BY_LOWER[lowered]]
    archive = _ARCHIVES_BY_LOWER.get(lowered)
    if archive is None:
        if lowered in LEGACY_ARCHIVES:
            return [lowered]
        return [get_category(text).id]  # unknown: the error names the closest ones
    inside = [c for c in CATEGORIES if archive_of(c) == archive and c != archive]
    if not inside:
        return [archive]
    others = [c for c in list(CATEGORIES) + list(LEGACY_ARCHIVES) if c.startswith(archive) and archive_of(c) != archive]
    return [f"{archive}*"] if not others else [archive, *inside]


def list_categories(group: str | None = None) -> list[Category]:
    """Categories selected by a category id, an archive prefix or a group name.

    "physics" is the physics.* archive while "Physics" (exactly so) is the whole group,
    which also holds astro-ph, cond-mat, hep-*, nlin and the rest; otherwise case is
    ignored. A trailing ".*" or "." on a prefix is accepted.
    """
    if group is None:
        return list(CATEGORIES.values())
    text = group.strip() if isinstance(group, str) else ""
    lowered = text.lower()
    if lowered in _IDS_BY_LOWER:
        return [CATEGORIES[_IDS_BY_LOWER[lowered]]]
    if text in GROUPS:
        return _in_group(text)
    prefix = lowered.removesuffix("*").removesuffix(".")
    if prefix in _ARCHIVES_BY_LOWER:
        archive = _ARCHIVES_BY_LOWER[prefix]
        return [c for c in CATEGORIES.values() if archive_of(c.id) == archive]
    if lowered in _GROUPS_BY_LOWER:
        return _in_group(_GROUPS_BY_LOWER[lowered])
    raise InvalidInput(_unknown_group_message(group))


def suggest(text: str, n: int = 3) -> list[str]:
    """Up to `n` real category ids that `text` (a mistyped id, an abbreviation or a topic) likely means."""
    query = text.strip().lower() if isinstance(text, str) else ""
    if not query or n <= 0:
        return []
    ranked: list[str] = []
    topical = _keyword_matches(query)
    for bucket in (
        _exact_matches(query),
        _INFORMAL_NAMES.get(query, ()),
        _acronym_matches(query),
        _close_ids(query, n),
        [cat_id for cat_id, covers_all in topical if covers_all],
        _close_names(query, n),
        [cat_id for cat_id, _ in topical],
    ):
        ranked.extend(cat_id for cat_id in bucket if cat_id not in ranked)
        if len(ranked) >= n:
            break
    return ranked[:n]


def _in_group(group: str) -> list[Category]:
    return [c for c in CATEGORIES.values() if c.group == group]


def _exact_matches(query: str) -> list[str]:
    by_id = [_IDS_BY_LOWER[query]] if query in _IDS_BY_LOWER else []
    return by_id + _IDS_BY_LOWER_NAME.get(query, [])


def _acronym(name: str) -> str:
    return "".join(word[0] for word in name.lower().replace("-", " ").split() if word not in _MINOR_WORDS)


def _acronym_matches(query: str) -> list[str]:
    """Read "cs.ML" or "ml" as the initials of a name: Machine Learning -> cs.LG, stat.ML."""
    archive, _, subject = query.rpartition(".")
    hits = [c.id for c in CATEGORIES.values() if len(subject) >= 2 and _acronym(c.name) == subject]
    return sorted(hits, key=lambda cat_id: archive_of(cat_id).lower() != archive)


def _close_ids(query: str, n: int) -> list[str]:
    close = difflib.get_close_matches(query, list(_IDS_BY_LOWER), n=n, cutoff=0.6)
    return [_IDS_BY_LOWER[lowered] for lowered in close]


def _close_names(query: str, n: int) -> list[str]:
    close = difflib.get_close_matches(query, list(_IDS_BY_LOWER_NAME), n=n, cutoff=0.6)
    return [cat_id for name in close for cat_id in _IDS_BY_LOWER_NAME[name]]


def _keyword_matches(query: str) -> list[tuple[str, bool]]:
    """Categories whose name or description shares words with a free-text topic, best first,
    each flagged with whether it contains every word of the topic."""
    terms = {word for word in _WORD.findall(query) if len(word) >= 3 and word not in _MINOR_WORDS}
    if not terms:
        return []
    scores: dict[str, tuple[int, int]] = {}
    for category in CATEGORIES.values():
        name_words = set(_WORD.findall(category.name.lower()))
        words = name_words | set(_WORD.findall(category.description.lower()))
        hits = sum(1 for term in terms if any(word.startswith(term) for word in words))
        in_name = sum(1 for term in terms if any(word.startswith(term) for word in name_words))
        if hits:
            scores[category.id] = (hits, in_name)
    ranked = sorted(scores, key=lambda cat_id: scores[cat_id], reverse=True)
    return [(cat_id, scores[cat_id][0] == len(terms)) for cat_id in ranked]


def _did_you_mean(text: str) -> str:
    close = suggest(text)
    return f" Did you mean: {', '.join(close)}?" if close else ""


def _unknown_category_message(cat_id: object) -> str:
    text = cat_id.strip() if isinstance(cat_id, str) else ""
    if text in LEGACY_ARCHIVES and text not in CATEGORIES:
        return (
            f"'{text}' is an archive, not a category: {LEGACY_ARCHIVES[text]}. "
            f"Pass a category id, or call list_categories('{text}') for its categories."
            if text in ARCHIVE_GROUPS
            else f"'{text}' is a retired arXiv archive: {LEGACY_ARCHIVES[text]}. "
            "Call list_categories to see all current categories."
        )
    return (
        f"Unknown arXiv category {cat_id!r}.{_did_you_mean(text)} "
        "Category ids look like 'cs.AI' or 'hep-th'; call list_categories to see all."
    )


def _unknown_group_message(group: object) -> str:
    text = group.strip() if isinstance(group, str) else ""
    close_prefixes = difflib.get_close_matches(text.lower(), list(_ARCHIVES_BY_LOWER), n=2, cutoff=0.6)
    close_groups = difflib.get_close_matches(text.lower(), list(_GROUPS_BY_LOWER), n=1, cutoff=0.6)
    close = close_prefixes + [_GROUPS_BY_LOWER[g] for g in close_groups] + suggest(text)
    hint = f" Did you mean: {', '.join(dict.fromkeys(close))}?" if close else ""
    return (
        f"Unknown category group {group!r}.{hint} Pass an archive prefix such as 'cs', "
        "'math' or 'physics', a group name such as 'Physics', or a category id such as "
        "'cs.AI'; call list_categories with no group to see all."
    )
