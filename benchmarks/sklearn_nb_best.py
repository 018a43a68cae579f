"""scikit-learn's best naive Bayes pipeline on a train/test split.

usage: sklearn_nb_best.py TRAIN TEST [zh] [--folds K]
TRAIN and TEST are one-folder-per-class corpora (files decoded as Latin-1)
or .jsonl files of {"label", "text"} objects. The grid: CountVectorizer
(word 1-grams or 1-2-grams; for zh, character 1-, 1-2- and 1-3-grams) +
optional TfidfTransformer(sublinear_tf=True) + MultinomialNB or ComplementNB
with alpha in 0.01…1, and BernoulliNB on presence.

Two choices are reported:
  "cv": the pipeline GridSearchCV would choose, by mean accuracy over a
        StratifiedKFold(K, default 5) of the training part alone (first in
        grid order on ties), refitted on the whole training part and scored
        once on the test part. This is the fair comparison.
  "oracle": the pipeline with the best test accuracy (then macro-F1), an
        upper bound no honest tuning can reach.
The search is GridSearchCV's, written out so that each fold's counts are
fitted once (on that fold's training part), for the widest n-gram range, and
shared by the classifiers, as Pipeline(memory=...) would cache them: the
counts of a narrower range are the columns of its n-grams, exactly what
CountVectorizer fits for that range. sklearn_folds.py goes further and
slices every fold's counts from one analysis of the corpus (Corpus).
"""
import json
import sys

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import BernoulliNB, ComplementNB, MultinomialNB

from sklearn_pipeline import load as load_folders

ALPHAS = (0.01, 0.03, 0.1, 0.3, 1.0)


def load(path, decode=None):
    """Reads a folder corpus or a .jsonl file; decode, when given, turns a
    folder's file bytes into text (Latin-1 otherwise)."""
    if not path.endswith(".jsonl"):
        return load_folders(path, decode)
    texts, labels = [], []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                o = json.loads(line)
                texts.append(o["text"])
                labels.append(o["label"])
    return texts, labels


def vectorizers(zh):
    """The grid's CountVectorizer settings by name, in grid order."""
    if zh:
        return {f"char 1-{n}": dict(analyzer="char", ngram_range=(1, n)) for n in (1, 2, 3)}
    return {"1-grams": dict(ngram_range=(1, 1)), "1-2-grams": dict(ngram_range=(1, 2))}


def ngram_len(term, analyzer):
    return len(term) if analyzer == "char" else term.count(" ") + 1


class Counts:
    """The counts of xtr and xte for every setting of vecs, from one fit of
    the widest range."""

    def __init__(self, xtr, xte, vecs):
        widest = max(vecs.values(), key=lambda kw: kw["ngram_range"][1])
        cv = CountVectorizer(**widest)
        self.tr, self.te = cv.fit_transform(xtr), cv.transform(xte)
        analyzer = widest.get("analyzer", "word")
        self.n = np.array([ngram_len(t, analyzer) for t in cv.get_feature_names_out()])

    @classmethod
    def sliced(cls, corpus, tr, te):
        """The Counts that fitting on rows tr of a Corpus and transforming
        rows te would give, without analyzing the texts again."""
        c = cls.__new__(cls)
        a = corpus.x[tr]
        cols = np.flatnonzero(np.asarray(a.sum(axis=0)).ravel())  # the training part's vocabulary, in order
        c.tr, c.te, c.n = a[:, cols], corpus.x[te][:, cols], corpus.n[cols]
        return c

    def get(self, kw):
        lo, hi = kw["ngram_range"]
        cols = np.where((self.n >= lo) & (self.n <= hi))[0]
        if len(cols) == len(self.n):
            return self.tr, self.te
        return self.tr[:, cols], self.te[:, cols]


class Corpus:
    """Every document's counts for the widest range of vecs, analyzed once:
    CountVectorizer's vocabulary on a subset is the set of terms the
    subset's rows use, in the same order, and its counts are those rows
    restricted to those columns, so that Counts.sliced equals a fit on the
    subset exactly, at the cost of slicing a matrix."""

    def __init__(self, texts, vecs):
        c = Counts(texts, [], vecs)
        self.x, self.n = c.tr.tocsr(), c.n


def grid(vecs):
    """The grid's pipelines in grid order: name → (setting name, weighting, classifier class, alpha)."""
    g = {}
    for vname in vecs:
        for wname in ("counts", "tfidf"):
            for mname, model in (("mnb", MultinomialNB), ("cnb", ComplementNB)):
                for alpha in ALPHAS:
                    g[f"{vname} {wname} {mname} alpha={alpha}"] = (vname, wname, model, alpha)
        for alpha in ALPHAS:
            g[f"{vname} presence bnb alpha={alpha}"] = (vname, "presence", BernoulliNB, alpha)
    return g


def predictions(xtr, ytr, xte, vecs, counts=None):
    """Yields (pipeline name, predictions on xte) for every pipeline of the
    grid fitted on (xtr, ytr), in grid order."""
    counts = counts or Counts(xtr, xte, vecs)
    weighted = {}
    for name, (vname, wname, model, alpha) in grid(vecs).items():
        if vname not in weighted:
            ctr, cte = counts.get(vecs[vname])
            tf = TfidfTransformer(sublinear_tf=True)
            weighted = {vname: {"counts": (ctr, cte), "presence": (ctr, cte),
                                "tfidf": (tf.fit_transform(ctr), tf.transform(cte))}}
        a, b = weighted[vname][wname]
        yield name, model(alpha=alpha).fit(a, ytr).predict(b)


def inner_folds(ytr, folds):
    """The training part's StratifiedKFold(folds) as (train, test) index arrays."""
    ytr = np.asarray(ytr)
    return list(StratifiedKFold(n_splits=folds).split(np.zeros(len(ytr)), ytr))


def cv_scores(xtr, ytr, vecs, folds, on_fold=None, corpus=None, rows=None):
    """Every grid pipeline's accuracies over the inner folds of the training
    part. on_fold(counts, inner train labels, inner test labels), when
    given, is called with each inner fold's counts, for other models to
    share. With a Corpus, rows are the training part's rows in it (xtr is
    then unused) and the counts are sliced from it."""
    ytr_a = np.asarray(ytr)
    scores = {}
    for tr, te in inner_folds(ytr, folds):
        if corpus is not None:
            counts = Counts.sliced(corpus, rows[tr], rows[te])
        else:
            counts = Counts([xtr[i] for i in tr], [xtr[i] for i in te], vecs)
        for name, pred in predictions(None, ytr_a[tr], None, vecs, counts):
            scores.setdefault(name, []).append(accuracy_score(ytr_a[te], pred))
        if on_fold:
            on_fold(counts, ytr_a[tr], ytr_a[te])
    return scores


def cv_choice(scores):
    """The pipeline GridSearchCV chooses: best mean, first in grid order on ties."""
    order = list(scores)
    return max(order, key=lambda n: (np.mean(scores[n]), -order.index(n)))


def pipeline(name, vecs):
    """The named grid pipeline, unfitted: (CountVectorizer, TfidfTransformer or None, classifier)."""
    vname, wname, model, alpha = grid(vecs)[name]
    return CountVectorizer(**vecs[vname]), TfidfTransformer(sublinear_tf=True) if wname == "tfidf" else None, model(alpha=alpha)


def main():
    args = sys.argv[1:]
    folds = 5
    if "--folds" in args:
        i = args.index("--folds")
        folds = int(args[i + 1])
        del args[i:i + 2]
    (xtr, ytr), (xte, yte) = load(args[0]), load(args[1])
    vecs = vectorizers(len(args) > 2 and args[2] == "zh")
    scores = cv_scores(xtr, ytr, vecs, folds)
    cv_name = cv_choice(scores)

    results = []
    for name, pred in predictions(xtr, ytr, xte, vecs):
        results.append({"pipeline": name,
                        "cv_accuracy": float(np.mean(scores[name])),
                        "cv_sd": float(np.std(scores[name])),
                        "accuracy": accuracy_score(yte, pred),
                        "macro_f1": f1_score(yte, pred, average="macro")})
    oracle = max(results, key=lambda r: (r["accuracy"], r["macro_f1"]))
    chosen = next(r for r in results if r["pipeline"] == cv_name)
    print(json.dumps({"folds": folds, "cv": chosen, "oracle": oracle, "all": results}))


if __name__ == "__main__":
    main()
