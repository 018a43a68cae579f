package main

import (
	"fmt"
	"strconv"
	"strings"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/tokenize"
)

// parseGrid reads a grid (--grid) written as
//
//	alpha=0.03,0.1,0.3,1;ngrams=1,1|1,2;char-ngrams=none|1,2|1,3;weighting=tfidf|rennie|counts;model=cnb|mnb;reweight=none|3;reweight-top=2;race=yes
//
// Settings it does not name keep the base configuration's value.
func parseGrid(s string) (facade.Grid, error) {
	var g facade.Grid
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, list, ok := strings.Cut(part, "=")
		if !ok || strings.TrimSpace(list) == "" {
			return g, fmt.Errorf("%w: grid %q: want NAME=VALUE|VALUE…", facade.ErrConfig, part)
		}
		key = strings.TrimSpace(key)
		var err error
		switch key {
		case "alpha":
			for _, v := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == '|' }) {
				a, e := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if e != nil || !(a > 0) {
					return g, fmt.Errorf("%w: grid alpha %q: want positive numbers", facade.ErrConfig, v)
				}
				g.Alpha = append(g.Alpha, a)
			}
		case "ngrams":
			g.NGrams, err = parseRanges(key, list, false)
		case "char-ngrams":
			g.CharNGrams, err = parseRanges(key, list, true)
		case "weighting":
			g.Weighting, err = parseEach(list, textParser(g.Weighting))
		case "model":
			g.Classifier, err = parseEach(list, textParser(g.Classifier))
		case "reweight":
			g.Reweight, err = parseEach(list, func(v string) (int, error) {
				var r reweightFlag
				err := r.Set(v)
				return int(r), err
			})
		case "rate":
			g.ReweightRate, err = parseEach(list, func(v string) (float64, error) {
				var r rateFlag
				err := r.Set(v)
				return float64(r), err
			})
		case "reweight-top":
			v := strings.TrimSpace(list)
			if v == "all" {
				g.ReweightTop = -1
				break
			}
			n, e := strconv.Atoi(v)
			if e != nil || n < 1 {
				return g, fmt.Errorf("%w: grid reweight-top %q: want a positive count or all", facade.ErrConfig, v)
			}
			g.ReweightTop = n
		case "race":
			switch v := strings.TrimSpace(list); v {
			case "yes":
				g.NoRace = false
			case "no":
				g.NoRace = true
			default:
				return g, fmt.Errorf("%w: grid race %q: want yes or no", facade.ErrConfig, v)
			}
		default:
			return g, fmt.Errorf("%w: grid names %q: want alpha, ngrams, char-ngrams, weighting, model, reweight, rate, reweight-top or race", facade.ErrConfig, key)
		}
		if err != nil {
			return g, err
		}
	}
	return g, nil
}

func parseEach[T any](list string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, v := range strings.Split(list, "|") {
		x, err := parse(strings.TrimSpace(v))
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

func parseRanges(key, list string, none bool) ([]tokenize.NGramRange, error) {
	return parseEach(list, func(v string) (tokenize.NGramRange, error) {
		if none && v == "none" {
			return tokenize.NGramRange{}, nil
		}
		r, err := parseRange("grid "+key, v)
		if err != nil {
			return r, fmt.Errorf("%w: %v", facade.ErrConfig, err)
		}
		return r, nil
	})
}

// textParser returns a reader of the enumeration of list's elements by
// their names.
func textParser[E any, P interface {
	*E
	UnmarshalText([]byte) error
}](list []E) func(string) (E, error) {
	return func(s string) (E, error) {
		var e E
		err := P(&e).UnmarshalText([]byte(s))
		return e, err
	}
}
