"""scikit-learn's one-vs-rest naive Bayes on Reuters-21578, for benchmarks/reuters.

usage: sklearn_reuters.py [--json] TRAIN.jsonl FOLDS.json K [TEST.jsonl]
       sklearn_reuters.py --time TRAIN.jsonl PREDICT.jsonl
FOLDS.json lists each training story's fold (0..K-1), as the Go program drew
them. Prints the table rows of OneVsRestClassifier(MultinomialNB(alpha=0.01))
on counts and OneVsRestClassifier(ComplementNB()) on TF-IDF: micro/macro-F1
of K-fold cross-validation and, with TEST.jsonl, of the test split.
Each binary model predicts a label when its probability is above 0.5.
A last row, OneVsRestClassifier(LinearSVC()) on sublinear TF-IDF, is not
naive Bayes: it is the yardstick of the ModApte literature (micro-F1 about
0.86 on the test split), to place a date split's scores.
With --json each row is a JSON object instead: name, micro_f1, macro_f1
and fit_predict_s, the wall seconds of all folds (benchmarks/accuracy).
With --time it is the process that benchmarks/reuters times against
textnb's training: sublinear TF-IDF + OneVsRest(LinearSVC) fitted on
TRAIN.jsonl, then predicting PREDICT.jsonl; it prints the predictions'
micro-F1 over the training labels.
"""
import json
import sys
import time

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.metrics import f1_score
from sklearn.multiclass import OneVsRestClassifier
from sklearn.naive_bayes import ComplementNB, MultinomialNB
from sklearn.preprocessing import MultiLabelBinarizer
from sklearn.svm import LinearSVC


def load(path):
    texts, labels = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                texts.append(d["text"])
                labels.append(d["labels"])
    return texts, labels


CONFIGS = [
    ("OneVsRest MultinomialNB(alpha=0.01), counts", lambda: CountVectorizer(), lambda: MultinomialNB(alpha=0.01)),
    ("OneVsRest ComplementNB(), TF-IDF", lambda: TfidfVectorizer(), lambda: ComplementNB()),
    ("OneVsRest LinearSVC() (not naive Bayes), sublinear TF-IDF", lambda: TfidfVectorizer(sublinear_tf=True), lambda: LinearSVC()),
]


def macro_f1(Y, P):
    """Macro-F1 over the labels with support or predictions, as textnb averages."""
    used = (Y.sum(0) + P.sum(0)) > 0
    return f1_score(Y[:, used], P[:, used], average="macro", zero_division=0)


def fit_predict(vec, est, train_texts, Y, test_texts):
    v = vec()
    clf = OneVsRestClassifier(est())
    clf.fit(v.fit_transform(train_texts), Y)
    return clf.predict(v.transform(test_texts))


def timed(train_path, predict_path):
    texts, labels = load(train_path)
    mlb = MultiLabelBinarizer()
    Y = mlb.fit_transform(labels)
    ptexts, plabels = load(predict_path)
    known = set(mlb.classes_)
    Yp = mlb.transform([[l for l in ls if l in known] for ls in plabels])
    _, vec, est = CONFIGS[2]
    p = fit_predict(vec, est, texts, Y, ptexts)
    print("%.4f" % f1_score(Yp, p, average="micro"))


def main():
    args = sys.argv[1:]
    if args and args[0] == "--time":
        timed(args[1], args[2])
        return
    as_json = "--json" in args
    if as_json:
        args.remove("--json")
    texts, labels = load(args[0])
    with open(args[1]) as f:
        fold = np.array(json.load(f))
    k = int(args[2])
    test = load(args[3]) if len(args) > 3 else None
    mlb = MultiLabelBinarizer()
    Y = mlb.fit_transform(labels)
    for name, vec, est in CONFIGS:
        pred = np.zeros_like(Y)
        macro = []
        start = time.time()
        for q in range(k):
            tr, te = np.where(fold != q)[0], np.where(fold == q)[0]
            keep = Y[tr].sum(0) > 0  # a label absent from the training folds cannot be fitted
            p = np.zeros((len(te), Y.shape[1]), dtype=Y.dtype)
            p[:, keep] = fit_predict(vec, est, [texts[i] for i in tr], Y[tr][:, keep], [texts[i] for i in te])
            pred[te] = p
            macro.append(macro_f1(Y[te], p))
        if as_json:
            print(json.dumps({"name": name, "micro_f1": f1_score(Y, pred, average="micro"),
                              "macro_f1": float(np.mean(macro)), "fit_predict_s": time.time() - start}), flush=True)
            continue
        row = "| scikit-learn %s | %.4f | %.4f | %.2f | |" % (
            name, f1_score(Y, pred, average="micro"), np.mean(macro), (time.time() - start) / k)
        if test is not None:
            Yt = MultiLabelBinarizer(classes=mlb.classes_).fit(labels).transform(
                [[l for l in ls if l in set(mlb.classes_)] for ls in test[1]])
            p = fit_predict(vec, est, texts, Y, test[0])
            row += " %.4f | %.4f | |" % (f1_score(Yt, p, average="micro"), macro_f1(Yt, p))
        print(row, flush=True)


if __name__ == "__main__":
    main()
