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
The search is GridSearchCV's, written out so that each fold's vectorizer
and weighting are fitted once (on that fold's training part) and shared by
the classifiers, as Pipeline(memory=...) would cache them.
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


def load(path):
    if not path.endswith(".jsonl"):
        return load_folders(path)
    texts, labels = [], []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                o = json.loads(line)
                texts.append(o["text"])
                labels.append(o["label"])
    return texts, labels


def predictions(xtr, ytr, xte, vecs):
    """Yields (pipeline name, predictions on xte) for every pipeline of the
    grid fitted on (xtr, ytr), in grid order."""
    for vname, kw in vecs.items():
        cv = CountVectorizer(**kw)
        ctr, cte = cv.fit_transform(xtr), cv.transform(xte)
        tf = TfidfTransformer(sublinear_tf=True)
        ttr = tf.fit_transform(ctr)
        tte = tf.transform(cte)
        for wname, (a, b) in {"counts": (ctr, cte), "tfidf": (ttr, tte)}.items():
            for mname, model in (("mnb", MultinomialNB), ("cnb", ComplementNB)):
                for alpha in ALPHAS:
                    yield f"{vname} {wname} {mname} alpha={alpha}", model(alpha=alpha).fit(a, ytr).predict(b)
        for alpha in ALPHAS:
            yield f"{vname} presence bnb alpha={alpha}", BernoulliNB(alpha=alpha).fit(ctr, ytr).predict(cte)


def main():
    args = sys.argv[1:]
    folds = 5
    if "--folds" in args:
        i = args.index("--folds")
        folds = int(args[i + 1])
        del args[i:i + 2]
    (xtr, ytr), (xte, yte) = load(args[0]), load(args[1])
    zh = len(args) > 2 and args[2] == "zh"
    if zh:
        vecs = {f"char 1-{n}": dict(analyzer="char", ngram_range=(1, n)) for n in (1, 2, 3)}
    else:
        vecs = {"1-grams": dict(ngram_range=(1, 1)), "1-2-grams": dict(ngram_range=(1, 2))}

    # Cross-validation on the training part only.
    ytr_a = np.asarray(ytr)
    scores = {}
    for tr, te in StratifiedKFold(n_splits=folds).split(np.zeros(len(ytr)), ytr_a):
        for name, pred in predictions([xtr[i] for i in tr], ytr_a[tr], [xtr[i] for i in te], vecs):
            scores.setdefault(name, []).append(accuracy_score(ytr_a[te], pred))
    order = list(scores)
    cv_name = max(order, key=lambda n: (np.mean(scores[n]), -order.index(n)))

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
