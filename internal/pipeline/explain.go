package pipeline

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/nb"
)

// Terms returns the term of every feature, indexed by feature id. A hashing
// model (Config.Vectorizer Hash) keeps no terms: it returns nil, and
// Explain names a column by the terms of the explained text that fall in it.
func (m *Model) Terms() (terms []string) {
	_ = m.readLocked(func() {
		if m.vocab != nil {
			terms = m.vocab.Terms()
		}
	})
	return terms
}

// ClassWeights returns the classifier's own weights of class c, one per
// feature, and its bias: the scores of Predictor.JointLogLikelihood are
//
//	score[c] = bias + Σ_j x_j·weights[j]
//
// over the document's weighted feature row, where x_j is the row's value (for Bernoulli
// NB, 1 if the value is above the binarizing threshold, else the feature is
// left out). c must be in [0, len(Classes)).
func (m *Model) ClassWeights(c int) (weights []float64, bias float64) {
	_ = m.readLocked(func() { weights, bias = m.classWeights(c) })
	return weights, bias
}

// classWeights is ClassWeights; the caller holds m.mu.
func (m *Model) classWeights(c int) (weights []float64, bias float64) {
	t := m.linear()
	weights = make([]float64, t.Features)
	for j := range weights {
		weights[j] = weightOf(t, c, j)
	}
	return weights, t.Bias[c]
}

// weightOf returns the weight of feature j for class c: P·Base + Q, plus
// the cell's Delta if the class has one (see compact.Linear).
func weightOf(t *compact.Linear, c, j int) float64 {
	w := t.Q[c]
	if t.Base != nil {
		w += t.P[c] * t.Base[j]
	}
	for p := t.Ptr[j]; p < t.Ptr[j+1]; p++ {
		if int(t.Class[p]) == c {
			return w + t.Delta[p]
		}
	}
	return w
}

// Contribution is one feature's part in an Explanation.
type Contribution struct {
	// Term is the feature's term. With hashing it is the terms of the
	// text that fall in the column, joined by " | " if more than one.
	Term    string `json:"term"`
	Feature int    `json:"feature"`
	// Value is the row's value as the classifier uses it: weighted, or 1
	// for a term present in a Bernoulli model.
	Value float64 `json:"value"`
	// Weight is Value × (class weight − runner-up weight): what the
	// feature adds to the margin of Class over RunnerUp.
	Weight float64 `json:"weight"`
}

// Explanation tells why a text got its class: each of its features'
// signed contribution to the margin between the top class and the
// runner-up. Bias plus the Weights of Terms equals Margin up to rounding.
type Explanation struct {
	Class         int    `json:"class"`     // index into Model.Classes of the top class
	RunnerUp      int    `json:"runner_up"` // index of the second class
	Label         string `json:"label"`
	RunnerUpLabel string `json:"runner_up_label"`
	// Margin is the difference of the two classes' joint log-likelihood
	// scores, ≥ 0.
	Margin float64 `json:"margin"`
	// Bias is the part of Margin that no term carries: the difference of the
	// class biases (class priors, and for Bernoulli NB the absent terms).
	Bias float64 `json:"bias"`
	// Terms are the text's known features, largest |Weight| first.
	Terms []Contribution `json:"terms"`
}

// Top returns e's first n terms (all if n is 0), largest first, and the
// sum and number of the others: Bias + Σ kept + rest = Margin.
func (e Explanation) Top(n int) (kept []Contribution, rest float64, others int) {
	return TopTerms(e.Terms, n)
}

// TopTerms returns the first n of terms (all if n is 0), which are largest
// first as explanations list them, and the sum and number of the others.
func TopTerms(terms []Contribution, n int) (kept []Contribution, rest float64, others int) {
	if n == 0 || len(terms) <= n {
		return terms, 0, 0
	}
	for _, c := range terms[n:] {
		rest += c.Weight
	}
	return terms[:n], rest, len(terms) - n
}

// Explain scores text and explains its top class against the runner-up
// (ties: the first class, as Proba picks). Right after Proba or
// JointLogLikelihood of the same text, it reuses that text's row.
func (p *Predictor) Explain(text string) (e Explanation) {
	_ = p.m.readLocked(func() { e = p.explain(text) })
	return e
}

// explain is Explain; the caller holds the model's lock.
func (p *Predictor) explain(text string) Explanation {
	m := p.m
	if !p.rowOK || text != p.text {
		p.row(text)
	}
	p.jll = m.scorer().JointLogLikelihood(p.jll[:0], p.idx, p.val)
	top := nb.Argmax(p.jll)
	ru := -1
	for c, v := range p.jll {
		if c != top && (ru < 0 || v > p.jll[ru]) {
			ru = c
		}
	}
	t := m.linear()
	e := Explanation{
		Class: top, RunnerUp: ru, Label: m.Classes[top], RunnerUpLabel: m.Classes[ru],
		Margin: p.jll[top] - p.jll[ru], Bias: t.Bias[top] - t.Bias[ru],
		Terms: make([]Contribution, 0, len(p.idx)), // [] in JSON, not null
	}
	var hashed map[int32][]string
	if m.vocab == nil {
		hashed = p.hashedTerms()
	}
	for q, j := range p.idx {
		if int(j) >= t.Features {
			continue
		}
		x := p.val[q]
		if t.Binary {
			if x <= t.Threshold {
				continue
			}
			x = 1
		}
		c := Contribution{Feature: int(j), Value: x, Weight: x * (weightOf(t, top, int(j)) - weightOf(t, ru, int(j)))}
		if m.vocab != nil {
			c.Term = m.vocab.Term(int(j))
		} else {
			c.Term = strings.Join(hashed[j], " | ")
		}
		e.Terms = append(e.Terms, c)
	}
	slices.SortStableFunc(e.Terms, func(a, b Contribution) int {
		return cmp.Compare(math.Abs(b.Weight), math.Abs(a.Weight))
	})
	return e
}

// hashedTerms maps each hashing column of the last Row to the distinct
// terms that fell in it: the word n-grams joined by spaces, then the extra
// terms, as the hashing vectorizer forms them.
func (p *Predictor) hashedTerms() map[int32][]string {
	out := map[int32][]string{}
	add := func(term string) {
		j, _ := p.m.hash.Column(term)
		if !slices.Contains(out[j], term) {
			out[j] = append(out[j], term)
		}
	}
	lo := max(p.ngrams.Min, 1)
	hi := max(p.ngrams.Max, lo)
	for i := range p.terms {
		for n := lo; n <= hi && i+n <= len(p.terms); n++ {
			add(strings.Join(p.terms[i:i+n], " "))
		}
	}
	for _, t := range p.extra {
		add(t)
	}
	return out
}
