"""Compare calibration methods on textnb's k-fold held-out scores.

Reads the files that `go run ./benchmarks/calibration -dump DIR` writes and
prints, per corpus, the log loss, ECE (10 equal-width bins of the top
probability) and accuracy of each method, cross-fitted: each method is
fitted on one half of the held-out documents and scored on the other, and
the other way round (seeded halves, stratified by class).

    /usr/bin/python3 benchmarks/calibration/compare.py DIR/*.tsv
"""
import sys

import numpy as np
from scipy.optimize import minimize
from scipy.special import logsumexp, softmax
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression

from sklearn_calibration import ece, log_loss as logloss


def read(path):
    y, s = [], []
    with open(path) as f:
        f.readline()
        for line in f:
            parts = line.rstrip("\n").split("\t")
            y.append(int(parts[0]))
            s.append([float(v) for v in parts[1:]])
    s = np.array(s)
    return np.array(y), s - s.max(axis=1, keepdims=True)


def nll_tb(theta, s, y, bias):
    beta = np.exp(theta[0])
    z = beta * s + (np.concatenate([[0.0], theta[1:]]) if bias else 0)
    return np.mean(logsumexp(z, axis=1) - z[np.arange(len(y)), y])


def fit_temperature(s, y, bias=False):
    k = s.shape[1]
    x0 = np.zeros(k if bias else 1)
    r = minimize(nll_tb, x0, args=(s, y, bias), method="L-BFGS-B")
    th = r.x
    beta = np.exp(th[0])
    b = np.concatenate([[0.0], th[1:]]) if bias else 0
    return lambda t: softmax(beta * t + b, axis=1)


def fit_platt_ovr(s, y):
    p = softmax(s, axis=1)
    logit = np.log(np.clip(p, 1e-300, None)) - np.log(np.clip(1 - p, 1e-300, None))
    models = []
    for c in range(s.shape[1]):
        lr = LogisticRegression(C=1e6).fit(logit[:, [c]], (y == c).astype(int))
        models.append(lr)

    def apply(t):
        q = softmax(t, axis=1)
        lg = np.log(np.clip(q, 1e-300, None)) - np.log(np.clip(1 - q, 1e-300, None))
        out = np.column_stack([m.predict_proba(lg[:, [c]])[:, 1] for c, m in enumerate(models)])
        return out / out.sum(axis=1, keepdims=True)
    return apply


def fit_isotonic_ovr(s, y):
    p = softmax(s, axis=1)
    models = [IsotonicRegression(out_of_bounds="clip", y_min=1e-4, y_max=1 - 1e-4).fit(p[:, c], (y == c).astype(float))
              for c in range(s.shape[1])]

    def apply(t):
        q = softmax(t, axis=1)
        out = np.column_stack([m.predict(q[:, c]) for c, m in enumerate(models)])
        return out / out.sum(axis=1, keepdims=True)
    return apply


def fit_top_label(s, y):
    """The temperature, then textnb's top-label map (pipeline.TopLabel):
    isotonic regression of top-class correctness on the top probability,
    linear between the pooled blocks' means, the others scaled to sum to 1,
    the top class kept on top."""
    temp = fit_temperature(s, y)
    p = temp(s)
    top, right = p.max(axis=1), (p.argmax(axis=1) == y).astype(float)
    order = np.argsort(top, kind="stable")
    blocks = []  # [sum conf, sum right, n]
    for i in order:
        blocks.append([top[i], right[i], 1.0])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            b = blocks.pop()
            blocks[-1] = [blocks[-1][0] + b[0], blocks[-1][1] + b[1], blocks[-1][2] + b[2]]
    xs, ys = [], []
    for c, r, n in blocks:
        if not xs or c / n > xs[-1]:
            xs.append(c / n)
            ys.append(r / n)
    xs, ys = np.array(xs), np.array(ys)

    def apply(t):
        q = temp(t)
        best = q.argmax(axis=1)
        x = q[np.arange(len(q)), best]
        new = np.interp(x, xs, ys)
        second = np.sort(q, axis=1)[:, -2]
        rest = 1 - x
        new = np.where(rest > 0, np.maximum(new, second / np.maximum(rest + second, 1e-300) + 2**-40), new)
        new = np.clip(new, 1 / q.shape[1], 1)
        scale = np.where(rest > 0, (1 - new) / np.maximum(rest, 1e-300), 0)
        out = q * scale[:, None]
        out[np.arange(len(q)), best] = new
        return out
    return apply


METHODS = [
    ("none", lambda s, y: (lambda t: softmax(t, axis=1))),
    ("temperature", fit_temperature),
    ("temperature + top-label map", fit_top_label),
    ("temperature + bias", lambda s, y: fit_temperature(s, y, bias=True)),
    ("Platt per class", fit_platt_ovr),
    ("isotonic per class", fit_isotonic_ovr),
]


def main():
    rng = np.random.default_rng(1)
    print("| corpus | method | log loss | ECE | accuracy | argmax changed |")
    print("|---|---|---|---|---|---|")
    for path in sys.argv[1:]:
        y, s = read(path)
        s = np.where(np.isfinite(s), s, -1e9)
        half = np.zeros(len(y), dtype=bool)
        for c in np.unique(y):
            idx = np.flatnonzero(y == c)
            rng.shuffle(idx)
            half[idx[: len(idx) // 2]] = True
        base = s.argmax(axis=1)
        for name, fit in METHODS:
            p = np.zeros_like(s)
            for a in (half, ~half):
                p[~a] = fit(s[a], y[a])(s[~a])
            print(f"| {path.rsplit('/', 1)[-1]} | {name} | {logloss(p, y):.4f} | {ece(p, y):.4f} | "
                  f"{(p.argmax(axis=1) == y).mean():.4f} | {(p.argmax(axis=1) != base).mean():.4f} |")


main()
