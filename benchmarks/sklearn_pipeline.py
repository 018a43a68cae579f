"""scikit-learn reference pipeline for the textnb benchmarks.

usage: sklearn_pipeline.py TRAIN_DIR TEST_DIR [ngram_max]
Reads one-folder-per-class corpora (files decoded as Latin-1), fits
CountVectorizer + TfidfTransformer(sublinear_tf=True) + ComplementNB(alpha=0.3)
and prints {"accuracy":…, "macro_f1":…} as JSON.
"""
import json
import os
import sys

from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer
from sklearn.metrics import accuracy_score, f1_score
from sklearn.naive_bayes import ComplementNB
from sklearn.pipeline import make_pipeline


def load(base, decode=None):
    """Reads a one-folder-per-class corpus (files in subfolders of a class
    count for it); decode turns a file's bytes into text, Latin-1 by default."""
    decode = decode or (lambda b: b.decode("latin-1"))
    texts, labels = [], []
    for c in sorted(os.listdir(base)):
        for root, dirs, files in os.walk(os.path.join(base, c), followlinks=False):
            dirs.sort()
            for f in sorted(files):
                if f.startswith("."):
                    continue
                with open(os.path.join(root, f), "rb") as fh:
                    texts.append(decode(fh.read()))
                labels.append(c)
    return texts, labels


def main():
    train, test = load(sys.argv[1]), load(sys.argv[2])
    ngram_max = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    model = make_pipeline(
        CountVectorizer(ngram_range=(1, ngram_max)),
        TfidfTransformer(sublinear_tf=True),
        ComplementNB(alpha=0.3),
    )
    model.fit(*train)
    pred = model.predict(test[0])
    print(json.dumps({
        "accuracy": accuracy_score(test[1], pred),
        "macro_f1": f1_score(test[1], pred, average="macro"),
    }))


if __name__ == "__main__":
    main()
