"""Real arXiv papers' metadata (titles, authors, dates as arXiv lists them) for the reference
resolver's tests: the papers of /work/shared/fixtures/references/examples.json, the arXiv
papers 1706.03762's bibliography cites, and papers that test near-identical titles."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.fake_arxiv import FakePaper

_ROWS: tuple[tuple[str, str, str, str, str], ...] = (
    # id, date, primary category, title, authors ("; "-separated)
    (
        "1810.04805",
        "2018-10-11",
        "cs.CL",
        "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
        "Jacob Devlin; Ming-Wei Chang; Kenton Lee; Kristina Toutanova",
    ),
    (
        "1512.03385",
        "2015-12-10",
        "cs.CV",
        "Deep Residual Learning for Image Recognition",
        "Kaiming He; Xiangyu Zhang; Shaoqing Ren; Jian Sun",
    ),
    ("1412.6980", "2014-12-22", "cs.LG", "Adam: A Method for Stochastic Optimization", "Diederik P. Kingma; Jimmy Ba"),
    (
        "1502.03167",
        "2015-02-11",
        "cs.LG",
        "Batch Normalization: Accelerating Deep Network Training by Reducing Internal Covariate Shift",
        "Sergey Ioffe; Christian Szegedy",
    ),
    (
        "1409.3215",
        "2014-09-10",
        "cs.CL",
        "Sequence to Sequence Learning with Neural Networks",
        "Ilya Sutskever; Oriol Vinyals; Quoc V. Le",
    ),
    (
        "1707.06347",
        "2017-07-20",
        "cs.LG",
        "Proximal Policy Optimization Algorithms",
        "John Schulman; Filip Wolski; Prafulla Dhariwal; Alec Radford; Oleg Klimov",
    ),
    (
        "hep-th/9711200",
        "1997-11-27",
        "hep-th",
        "The Large N Limit of Superconformal Field Theories and Supergravity",
        "Juan M. Maldacena",
    ),
    (
        "2005.14165",
        "2020-05-28",
        "cs.CL",
        "Language Models are Few-Shot Learners",
        "Tom B. Brown; Benjamin Mann; Nick Ryder; Melanie Subbiah; Jared Kaplan",
    ),
    (
        "1706.05137",
        "2017-06-16",
        "cs.LG",
        "One Model To Learn Them All",
        "Lukasz Kaiser; Aidan N. Gomez; Noam Shazeer; Ashish Vaswani; Niki Parmar",
    ),
    (
        "1301.3781",
        "2013-01-16",
        "cs.CL",
        "Efficient Estimation of Word Representations in Vector Space",
        "Tomas Mikolov; Kai Chen; Greg Corrado; Jeffrey Dean",
    ),
    (
        "2103.00020",
        "2021-02-26",
        "cs.CV",
        "Learning Transferable Visual Models From Natural Language Supervision",
        "Alec Radford; Jong Wook Kim; Chris Hallacy; Aditya Ramesh; Gabriel Goh",
    ),
    (
        "2006.11239",
        "2020-06-19",
        "cs.LG",
        "Denoising Diffusion Probabilistic Models",
        "Jonathan Ho; Ajay Jain; Pieter Abbeel",
    ),
    (
        "1312.6199",
        "2013-12-21",
        "cs.CV",
        "Intriguing properties of neural networks",
        "Christian Szegedy; Wojciech Zaremba; Ilya Sutskever; Joan Bruna; Dumitru Erhan",
    ),
    ("1312.6114", "2013-12-20", "stat.ML", "Auto-Encoding Variational Bayes", "Diederik P Kingma; Max Welling"),
    (
        "1706.03762",
        "2017-06-12",
        "cs.CL",
        "Attention Is All You Need",
        "Ashish Vaswani; Noam Shazeer; Niki Parmar; Jakob Uszkoreit; Llion Jones; Aidan N. Gomez; Lukasz Kaiser; Illia Polosukhin",
    ),
    (
        "1607.06450",
        "2016-07-21",
        "stat.ML",
        "Layer Normalization",
        "Jimmy Lei Ba; Jamie Ryan Kiros; Geoffrey E. Hinton",
    ),
    (
        "1409.0473",
        "2014-09-01",
        "cs.CL",
        "Neural Machine Translation by Jointly Learning to Align and Translate",
        "Dzmitry Bahdanau; Kyunghyun Cho; Yoshua Bengio",
    ),
    (
        "1703.03906",
        "2017-03-11",
        "cs.CL",
        "Massive Exploration of Neural Machine Translation Architectures",
        "Denny Britz; Anna Goldie; Minh-Thang Luong; Quoc Le",
    ),
    (
        "1601.06733",
        "2016-01-25",
        "cs.CL",
        "Long Short-Term Memory-Networks for Machine Reading",
        "Jianpeng Cheng; Li Dong; Mirella Lapata",
    ),
    (
        "1406.1078",
        "2014-06-03",
        "cs.CL",
        "Learning Phrase Representations using RNN Encoder-Decoder for Statistical Machine Translation",
        "Kyunghyun Cho; Bart van Merrienboer; Caglar Gulcehre; Dzmitry Bahdanau; Fethi Bougares; Holger Schwenk; Yoshua Bengio",
    ),
    (
        "1610.02357",
        "2016-10-07",
        "cs.CV",
        "Xception: Deep Learning with Depthwise Separable Convolutions",
        "François Chollet",
    ),
    (
        "1412.3555",
        "2014-12-11",
        "cs.NE",
        "Empirical Evaluation of Gated Recurrent Neural Networks on Sequence Modeling",
        "Junyoung Chung; Caglar Gulcehre; KyungHyun Cho; Yoshua Bengio",
    ),
    (
        "1602.07776",
        "2016-02-25",
        "cs.CL",
        "Recurrent Neural Network Grammars",
        "Chris Dyer; Adhiguna Kuncoro; Miguel Ballesteros; Noah A. Smith",
    ),
    (
        "1705.03122",
        "2017-05-08",
        "cs.CL",
        "Convolutional Sequence to Sequence Learning",
        "Jonas Gehring; Michael Auli; David Grangier; Denis Yarats; Yann N. Dauphin",
    ),
    ("1308.0850", "2013-08-04", "cs.NE", "Generating Sequences With Recurrent Neural Networks", "Alex Graves"),
    (
        "1602.02410",
        "2016-02-07",
        "cs.CL",
        "Exploring the Limits of Language Modeling",
        "Rafal Jozefowicz; Oriol Vinyals; Mike Schuster; Noam Shazeer; Yonghui Wu",
    ),
    ("1610.08613", "2016-10-27", "cs.LG", "Can Active Memory Replace Attention?", "Łukasz Kaiser; Samy Bengio"),
    ("1511.08228", "2015-11-25", "cs.LG", "Neural GPUs Learn Algorithms", "Łukasz Kaiser; Ilya Sutskever"),
    (
        "1610.10099",
        "2016-10-31",
        "cs.CL",
        "Neural Machine Translation in Linear Time",
        "Nal Kalchbrenner; Lasse Espeholt; Karen Simonyan; Aaron van den Oord; Alex Graves; Koray Kavukcuoglu",
    ),
    (
        "1702.00887",
        "2017-02-03",
        "cs.CL",
        "Structured Attention Networks",
        "Yoon Kim; Carl Denton; Luong Hoang; Alexander M. Rush",
    ),
    ("1703.10722", "2017-03-31", "cs.CL", "Factorization tricks for LSTM networks", "Oleksii Kuchaiev; Boris Ginsburg"),
    (
        "1703.03130",
        "2017-03-09",
        "cs.CL",
        "A Structured Self-attentive Sentence Embedding",
        "Zhouhan Lin; Minwei Feng; Cicero Nogueira dos Santos; Mo Yu; Bing Xiang; Bowen Zhou; Yoshua Bengio",
    ),
    (
        "1511.06114",
        "2015-11-19",
        "cs.LG",
        "Multi-task Sequence to Sequence Learning",
        "Minh-Thang Luong; Quoc V. Le; Ilya Sutskever; Oriol Vinyals; Lukasz Kaiser",
    ),
    (
        "1508.04025",
        "2015-08-17",
        "cs.CL",
        "Effective Approaches to Attention-based Neural Machine Translation",
        "Minh-Thang Luong; Hieu Pham; Christopher D. Manning",
    ),
    (
        "1606.01933",
        "2016-06-06",
        "cs.CL",
        "A Decomposable Attention Model for Natural Language Inference",
        "Ankur P. Parikh; Oscar Täckström; Dipanjan Das; Jakob Uszkoreit",
    ),
    (
        "1705.04304",
        "2017-05-11",
        "cs.CL",
        "A Deep Reinforced Model for Abstractive Summarization",
        "Romain Paulus; Caiming Xiong; Richard Socher",
    ),
    (
        "1608.05859",
        "2016-08-20",
        "cs.CL",
        "Using the Output Embedding to Improve Language Models",
        "Ofir Press; Lior Wolf",
    ),
    (
        "1508.07909",
        "2015-08-31",
        "cs.CL",
        "Neural Machine Translation of Rare Words with Subword Units",
        "Rico Sennrich; Barry Haddow; Alexandra Birch",
    ),
    (
        "1701.06538",
        "2017-01-23",
        "cs.LG",
        "Outrageously Large Neural Networks: The Sparsely-Gated Mixture-of-Experts Layer",
        "Noam Shazeer; Azalia Mirhoseini; Krzysztof Maziarz; Andy Davis; Quoc Le; Geoffrey Hinton; Jeff Dean",
    ),
    (
        "1503.08895",
        "2015-03-31",
        "cs.NE",
        "End-To-End Memory Networks",
        "Sainbayar Sukhbaatar; Arthur Szlam; Jason Weston; Rob Fergus",
    ),
    (
        "1512.00567",
        "2015-12-02",
        "cs.CV",
        "Rethinking the Inception Architecture for Computer Vision",
        "Christian Szegedy; Vincent Vanhoucke; Sergey Ioffe; Jonathon Shlens; Zbigniew Wojna",
    ),
    (
        "1412.7449",
        "2014-12-23",
        "cs.CL",
        "Grammar as a Foreign Language",
        "Oriol Vinyals; Lukasz Kaiser; Terry Koo; Slav Petrov; Ilya Sutskever; Geoffrey Hinton",
    ),
    (
        "1609.08144",
        "2016-09-26",
        "cs.CL",
        "Google's Neural Machine Translation System: Bridging the Gap between Human and Machine Translation",
        "Yonghui Wu; Mike Schuster; Zhifeng Chen; Quoc V. Le; Mohammad Norouzi",
    ),
    (
        "1606.04199",
        "2016-06-14",
        "cs.CL",
        "Deep Recurrent Models with Fast-Forward Connections for Neural Machine Translation",
        "Jie Zhou; Ying Cao; Xuguang Wang; Peng Li; Wei Xu",
    ),
    ("2402.01001", "2024-02-01", "math.CO", "Scalable Bounds for Graph Colourings", "Mira Okonkwo; Tal Berger"),
    ("2403.02002", "2024-03-02", "math.CO", "Scalable Bounds for Graph Colourings", "Ines Duarte; Piotr Nowak"),
)


def reference_papers() -> list[FakePaper]:
    """The papers above as the fake arXiv serves them."""
    out = []
    for pid, day, cat, title, authors in _ROWS:
        out.append(
            FakePaper(
                id=pid,
                title=title,
                abstract=f"We present {title.lower()}.",
                authors=authors.split("; "),
                categories=[cat],
                published=datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC),
                pdf=None,
            )
        )
    return out
