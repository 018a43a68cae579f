package vocab

import (
	"fmt"
	"slices"
	"strings"
)

// TermStats are the terms of a set of documents with their document
// frequencies and total counts, in sorted order: what pruning needs of a
// vocabulary, in a form that merges. Statistics of disjoint sets of
// documents merge (MergeTermStats) into those of their union, in any
// grouping and order, so a corpus can be counted in parts, on several
// machines, and pruned as a whole (Select).
type TermStats struct {
	Docs   int64    // documents counted
	Terms  []string // distinct, increasing
	DF, TF []int64  // per term: documents that hold it, occurrences
}

// TermStats spells every term of c with its document frequency and total
// count. It takes memory in proportion to the vocabulary, not the rows.
func (c *Counts) TermStats() *TermStats {
	u := c.u
	if u.one != nil && u.tf == nil {
		_, u.tf = u.one.termCounts(false, true)
	}
	var ids []int32
	for g, d := range u.df {
		if d > 0 {
			ids = append(ids, int32(g))
		}
	}
	terms := u.termsOf(ids)
	if !u.sorted {
		pos := sortByTerm(terms)
		ids, terms = permute(ids, pos), permute(terms, pos)
	}
	s := &TermStats{Docs: int64(u.rows), Terms: terms, DF: make([]int64, len(ids)), TF: make([]int64, len(ids))}
	for i, g := range ids {
		s.DF[i], s.TF[i] = u.df[g], u.tf[g]
	}
	return s
}

// Validate reports statistics that cannot have been counted: terms out of
// order or repeated, lengths that differ, or frequencies out of range.
func (s *TermStats) Validate() error {
	if len(s.DF) != len(s.Terms) || len(s.TF) != len(s.Terms) {
		return fmt.Errorf("%w: %d terms, %d document frequencies, %d totals", ErrConfig, len(s.Terms), len(s.DF), len(s.TF))
	}
	for i, t := range s.Terms {
		switch {
		case i > 0 && s.Terms[i-1] >= t:
			return fmt.Errorf("%w: term %d %q does not follow %q", ErrConfig, i, t, s.Terms[i-1])
		case s.DF[i] < 1 || s.DF[i] > s.Docs || s.TF[i] < s.DF[i]:
			return fmt.Errorf("%w: term %q in %d of %d documents, %d times", ErrConfig, t, s.DF[i], s.Docs, s.TF[i])
		}
	}
	return nil
}

// MergeTermStats returns the statistics of the union of the documents
// that a and b counted.
func MergeTermStats(a, b *TermStats) *TermStats {
	n := len(a.Terms) + len(b.Terms)
	s := &TermStats{Docs: a.Docs + b.Docs, Terms: make([]string, 0, n), DF: make([]int64, 0, n), TF: make([]int64, 0, n)}
	i, j := 0, 0
	for i < len(a.Terms) || j < len(b.Terms) {
		c := -1
		switch {
		case i == len(a.Terms):
			c = 1
		case j < len(b.Terms):
			c = strings.Compare(a.Terms[i], b.Terms[j])
		}
		switch {
		case c < 0:
			s.Terms, s.DF, s.TF = append(s.Terms, a.Terms[i]), append(s.DF, a.DF[i]), append(s.TF, a.TF[i])
			i++
		case c > 0:
			s.Terms, s.DF, s.TF = append(s.Terms, b.Terms[j]), append(s.DF, b.DF[j]), append(s.TF, b.TF[j])
			j++
		default:
			s.Terms, s.DF, s.TF = append(s.Terms, a.Terms[i]), append(s.DF, a.DF[i]+b.DF[j]), append(s.TF, a.TF[i]+b.TF[j])
			i, j = i+1, j+1
		}
	}
	return s
}

// counts views s as the merged counts of a vocabulary, for pruning.
func (s *TermStats) counts() *Counts {
	u := &union{rows: int(s.Docs), distinct: len(s.Terms), terms: s.Terms, sorted: true, df: s.DF, tf: s.TF}
	return &Counts{u: u}
}

// MinDFFor is Counts.MinDFFor of the counted documents.
func (s *TermStats) MinDFFor(maxCols, maxFeatures int) int {
	return s.counts().MinDFFor(maxCols, maxFeatures)
}

// Select prunes the terms by cfg as Finish would the documents'
// vocabulary, and returns the kept terms (ids in sorted order) with their
// document frequencies.
func (s *TermStats) Select(cfg Config) (*Vocabulary, []int64, error) {
	if err := cfg.validate(); err != nil {
		return nil, nil, err
	}
	u := s.counts().u
	keep, err := u.kept(cfg)
	if err != nil {
		return nil, nil, err
	}
	keep = u.limit(keep, cfg)
	df := make([]int64, len(keep))
	for i, g := range keep {
		df[i] = s.DF[g]
	}
	return packTerms(u.termsOf(keep)), slices.Clip(df), nil
}
