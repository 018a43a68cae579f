package pipeline

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/featurehash"
	"github.com/textnb/textnb/internal/textcore"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/tokenize"
)

// core is what package shard, multilabel and internal/serve build on.
var core = &textcore.Core[Config, *Model, *Trainer]{
	Decode:     decode,
	LangSample: langSample,
	Validate:   Config.validate,
	Resolve: func(cfg Config, lang tokenize.Lang) (Config, *tokenize.Analyzer) {
		an := tokenize.New(cfg.tokenizeConfig(lang))
		cfg.Tokenize = an.Config()
		if cfg.Classifier != Auto { // else α waits for the classes
			cfg.Alpha = cfg.alpha()
		}
		return cfg, an
	},
	HashFeatures: Config.hashFeatures,
	MaxTableSize: Config.maxTableSize,
	Difference: func(a, b Config) (string, any, any) {
		return fieldDifference("", reflect.ValueOf(a), reflect.ValueOf(b))
	},
	NewModel:  newModel,
	Row:       func(m *Model) func(string) ([]int32, []float64) { return m.NewPredictor().row },
	Estimator: func(m *Model) nb.Estimator { return m.newEstimator() },
	Fit:       fitCounts,

	Queue:         func(t *Trainer, text string) { t.queue(0, text) },
	Stop:          func(t *Trainer) { t.stop() },
	MultiRows:     multiRows,
	SetClassifier: setClassifier,
	WriteMulti:    writeMulti,
	DecodeMulti:   decodeMulti,
	ScoreRow: func(m *Model, dst []float64, idx []int32, val []float64) []float64 {
		return m.scorer().JointLogLikelihood(dst, idx, val)
	},
	WeightsAt: func(m *Model, dst []float64, c int, features []int32) ([]float64, float64) {
		t := m.linear()
		for _, j := range features {
			dst = append(dst, weightOf(t, c, int(j)))
		}
		return dst, t.Bias[c]
	},
}

func init() { textcore.Register(core) }

// newModel is textcore.Core.NewModel.
func newModel(cfg Config, classes []string, v *vocab.Vocabulary, h featurehash.Hashing, docs int, df []int64) (*Model, error) {
	cfg = cfg.forClasses(len(classes))
	m := &Model{Config: cfg, Classes: slices.Clone(classes), an: tokenize.New(cfg.Tokenize), vocab: v, hash: h}
	if err := m.fitWeightingDF(docs, func() []int64 { return df }); err != nil {
		return nil, err
	}
	return m, nil
}

// fitCounts is textcore.Core.Fit.
func fitCounts(p *Model, counts *compact.Counts) (*Model, error) {
	m := &Model{Config: p.Config, Classes: slices.Clone(p.Classes), an: p.an, vocab: p.vocab, hash: p.hash, weight: p.weight}
	if counts.Classes != len(m.Classes) {
		return nil, fmt.Errorf("%w: counts of %d classes, want %d", ErrConfig, counts.Classes, len(m.Classes))
	}
	m.counts = counts
	if err := m.refit(); err != nil {
		return nil, err
	}
	if err := m.finite(); err != nil {
		return nil, err
	}
	return m, nil
}
