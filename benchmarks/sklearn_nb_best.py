"""scikit-learn's best naive Bayes pipeline on a train/test split.

usage: sklearn_nb_best.py TRAIN TEST [zh]
TRAIN and TEST are one-folder-per-class corpora (files decoded as Latin-1)
or .jsonl files of {"label", "text"} objects. Fits every pipeline of
CountVectorizer (word 1-grams or 1-2-grams; for zh, character 1-, 1-2- and
1-3-grams) + optional TfidfTransformer(sublinear_tf=True) + MultinomialNB or
ComplementNB with alpha in 0.01…1, and BernoulliNB on presence, on the
training part; scores each on the test part and prints the best (by test
accuracy: the most favourable choice for scikit-learn) and all of them as
JSON. The vectorizer is fitted once per n-gram range and the weighting once
per vectorizer, as GridSearchCV would cache them.
"""
import json
import sys

from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer
from sklearn.metrics import accuracy_score, f1_score
from sklearn.naive_bayes import BernoulliNB, ComplementNB, MultinomialNB

from sklearn_pipeline import load as load_folders


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


def main():
    (xtr, ytr), (xte, yte) = load(sys.argv[1]), load(sys.argv[2])
    zh = len(sys.argv) > 3 and sys.argv[3] == "zh"
    if zh:
        vecs = {f"char 1-{n}": dict(analyzer="char", ngram_range=(1, n)) for n in (1, 2, 3)}
    else:
        vecs = {"1-grams": dict(ngram_range=(1, 1)), "1-2-grams": dict(ngram_range=(1, 2))}
    alphas = (0.01, 0.03, 0.1, 0.3, 1.0)
    results = []
    for vname, kw in vecs.items():
        cv = CountVectorizer(**kw)
        ctr, cte = cv.fit_transform(xtr), cv.transform(xte)
        tf = TfidfTransformer(sublinear_tf=True)
        ttr = tf.fit_transform(ctr)
        tte = tf.transform(cte)
        for wname, (a, b) in {"counts": (ctr, cte), "tfidf": (ttr, tte)}.items():
            for mname, model in (("mnb", MultinomialNB), ("cnb", ComplementNB)):
                for alpha in alphas:
                    pred = model(alpha=alpha).fit(a, ytr).predict(b)
                    results.append({"pipeline": f"{vname} {wname} {mname} alpha={alpha}",
                                    "accuracy": accuracy_score(yte, pred),
                                    "macro_f1": f1_score(yte, pred, average="macro")})
        for alpha in alphas:
            pred = BernoulliNB(alpha=alpha).fit(ctr, ytr).predict(cte)
            results.append({"pipeline": f"{vname} presence bnb alpha={alpha}",
                            "accuracy": accuracy_score(yte, pred),
                            "macro_f1": f1_score(yte, pred, average="macro")})
    best = max(results, key=lambda r: (r["accuracy"], r["macro_f1"]))
    print(json.dumps({"best": best, "all": results}))


if __name__ == "__main__":
    main()
