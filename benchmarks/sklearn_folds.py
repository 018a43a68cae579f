"""scikit-learn's anchors on the outer folds the Go benchmarks wrote.

usage: sklearn_folds.py MANIFEST.json
MANIFEST: {"zh": bool, "mail": bool, "inner": K, "positive": CLASS or null,
"folds": [{"index": I, "train": PATH, "test": PATH}, …]}. Each PATH is a folder of class
folders or a .jsonl file, read as sklearn_nb_best.py reads them; with
"mail", folder files are raw mail, decoded by mail_text.py.

For each outer fold, fitted on its training part alone (the inner folds'
counts sliced from one analysis of every text, which equals fitting
CountVectorizer on each inner training part; see sklearn_nb_best.Corpus):
  nb:  the naive Bayes pipeline sklearn_nb_best.py's "cv" choice picks by
       StratifiedKFold(K) on the training part;
  svm: TfidfVectorizer(sublinear_tf=True, word 1-2-grams, or character
       1-3-grams for zh) + LinearSVC, C from 0.1, 0.3, 1, 3 by the same
       inner folds (first on ties).
Prints one JSON object a fold, as each ends: the test part's true labels,
the inner search's wall time (both grids) and, per system, its
predictions, the positive class's score (log-odds for nb, decision value
for svm; two classes) when "positive" is set, and the wall time of fitting
the chosen pipeline from the texts and predicting.
"""
import json
import os
import sys
import time
import warnings

import numpy as np
from sklearn.feature_extraction.text import TfidfTransformer, TfidfVectorizer
from sklearn.metrics import accuracy_score
from sklearn.svm import LinearSVC

import mail_text
import sklearn_nb_best as nbb

CS = (0.1, 0.3, 1.0, 3.0)


def svm(c):
    return LinearSVC(C=c, random_state=0)


def positive_score(classes, scores, positive, decision):
    """The positive class's score against the other of two: its log-odds from
    predict_log_proba (decision=False), which do not saturate as
    probabilities do, or the decision_function value."""
    idx = list(classes).index(positive)
    if decision:  # one column, positive for classes[1]
        return scores if idx == 1 else -scores
    return scores[:, idx] - scores[:, 1 - idx]


def run_fold(fold, m, decode, corpus_cache):
    xtr, ytr = nbb.load(fold["train"], decode)
    xte, yte = nbb.load(fold["test"], decode)
    zh = m.get("zh", False)
    vecs = nbb.vectorizers(zh)
    positive = m.get("positive")
    corpus, rows = corpus_cache.rows(xtr, vecs)

    svm_scores = {c: [] for c in CS}

    def svm_inner(counts, itr, ite):
        tf = TfidfTransformer(sublinear_tf=True)
        a = tf.fit_transform(counts.tr)
        b = tf.transform(counts.te)
        for c in CS:
            svm_scores[c].append(accuracy_score(ite, svm(c).fit(a, itr).predict(b)))

    start = time.time()
    scores = nbb.cv_scores(xtr, ytr, vecs, m.get("inner", 5), svm_inner, corpus, rows)
    search = time.time() - start
    name = nbb.cv_choice(scores)
    best_c = max(CS, key=lambda c: (np.mean(svm_scores[c]), -CS.index(c)))

    out = {"labels": list(yte), "inner_search_s": search}
    start = time.time()
    cv, tf, model = nbb.pipeline(name, vecs)
    a, b = cv.fit_transform(xtr), cv.transform(xte)
    if tf is not None:
        a, b = tf.fit_transform(a), tf.transform(b)
    model.fit(a, ytr)
    pred = model.predict(b)
    nb = {"pipeline": name, "cv_accuracy": float(np.mean(scores[name])), "fit_predict_s": time.time() - start,
          "pred": list(pred)}
    if positive:
        nb["score"] = positive_score(model.classes_, model.predict_log_proba(b), positive, False).tolist()
    out["nb"] = nb

    start = time.time()
    kw = dict(analyzer="char", ngram_range=(1, 3)) if zh else dict(ngram_range=(1, 2))
    vec = TfidfVectorizer(sublinear_tf=True, **kw)
    a, b = vec.fit_transform(xtr), vec.transform(xte)
    model = svm(best_c).fit(a, ytr)
    pred = model.predict(b)
    sv = {"pipeline": f"tfidf sublinear {'char 1-3' if zh else 'word 1-2'}-grams linearsvc C={best_c}",
          "cv_accuracy": float(np.mean(svm_scores[best_c])), "fit_predict_s": time.time() - start, "pred": list(pred)}
    if positive:
        sv["score"] = positive_score(model.classes_, model.decision_function(b), positive, True).tolist()
    out["svm"] = sv
    return out


class CorpusCache:
    """One nbb.Corpus of every text of the folds, analyzed once, for the
    inner cross-validation's counts."""

    def __init__(self, m, decode):
        self.m, self.decode, self.corpus, self.index = m, decode, None, None

    def rows(self, texts, vecs):
        if self.corpus is None:
            self.index = {}
            for f in self.m["folds"]:
                for part in ("train", "test"):
                    for t in nbb.load(f[part], self.decode)[0]:
                        self.index.setdefault(t, len(self.index))
            self.corpus = nbb.Corpus(list(self.index), vecs)
        return self.corpus, np.array([self.index[t] for t in texts])


def main():
    with open(sys.argv[1]) as fh:
        m = json.load(fh)
    decode = None
    if m.get("mail"):
        memo = {}

        def decode_memo(raw):
            if raw not in memo:  # each outer fold reads every message again
                memo[raw] = mail_text.decode(raw)
            return memo[raw]
        decode = decode_memo
    warnings.filterwarnings("ignore")  # LinearSVC convergence notes
    corpus_cache = CorpusCache(m, decode)
    for i, fold in enumerate(m["folds"]):
        out = run_fold(fold, m, decode, corpus_cache)
        out["fold"] = fold.get("index", i)
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
