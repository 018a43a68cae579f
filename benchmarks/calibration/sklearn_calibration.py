"""scikit-learn's naive Bayes probabilities on a train/test split, scored
as benchmarks/calibration scores textnb's.

usage: sklearn_calibration.py TRAIN.jsonl TEST.jsonl
Features as textnb's defaults: CountVectorizer 1-2-grams +
TfidfTransformer(sublinear_tf=True). Prints one JSON object per model:
{"model", "accuracy", "confidence" (mean top probability), "log_loss", "ece"}.
"""
import json
import sys

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer
from sklearn.naive_bayes import ComplementNB, MultinomialNB

MODELS = [
    ("sklearn ComplementNB α 0.3", lambda: ComplementNB(alpha=0.3)),
    ("sklearn MultinomialNB α 0.3", lambda: MultinomialNB(alpha=0.3)),
    ("sklearn MultinomialNB α 0.01", lambda: MultinomialNB(alpha=0.01)),
]


def ece(p, y, bins=10):
    """Expected calibration error over equal-width bins of the top probability."""
    conf, pred = p.max(axis=1), p.argmax(axis=1)
    b = np.minimum((conf * bins).astype(int), bins - 1)
    e = 0.0
    for i in range(bins):
        m = b == i
        if m.any():
            e += m.mean() * abs((pred[m] == y[m]).mean() - conf[m].mean())
    return e


def log_loss(p, y):
    return float(-np.mean(np.log(np.clip(p[np.arange(len(y)), y], 1e-15, None))))


def load(path):
    texts, labels = [], []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            texts.append(d["text"])
            labels.append(d["label"])
    return texts, labels


def main():
    train_x, train_y = load(sys.argv[1])
    test_x, test_y = load(sys.argv[2])
    vec = CountVectorizer(ngram_range=(1, 2))
    tfidf = TfidfTransformer(sublinear_tf=True)
    xtr = tfidf.fit_transform(vec.fit_transform(train_x))
    xte = tfidf.transform(vec.transform(test_x))
    for name, make in MODELS:
        m = make().fit(xtr, train_y)
        p = m.predict_proba(xte)
        y = np.searchsorted(m.classes_, test_y)
        print(json.dumps({"model": name, "accuracy": float((p.argmax(axis=1) == y).mean()),
                          "confidence": float(p.max(axis=1).mean()), "log_loss": log_loss(p, y), "ece": ece(p, y)}))


if __name__ == "__main__":
    main()
