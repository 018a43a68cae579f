package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// A text model file's JSON header names every setting in snake_case and
// every enumeration by its text, as in
//
//	{"config":{"tokenize":{"min_len":2,…,"word_ngrams":{"min":1,"max":2},…},
//	 "vectorizer":"vocab",…,"classifier":"cnb","alpha":0.3,…},"classes":[…],…}
//
// The file's settings are structs of their own, apart from Config, so that
// renaming a Go field cannot change the format. Formats 1 and 2 wrote
// Config as encoding/json does by default, Go field names and enumerations
// as integers; legacyConfig reads them.

// fileConfig is Config in a model file.
type fileConfig struct {
	Tokenize     fileTokenize `json:"tokenize"`
	Vectorizer   Vectorizer   `json:"vectorizer"`
	Vocab        fileVocab    `json:"vocab"`
	HashFeatures int          `json:"hash_features"`
	Weighting    Weighting    `json:"weighting"`
	TFIDF        fileTFIDF    `json:"tfidf"`
	Classifier   Classifier   `json:"classifier"`
	Alpha        float64      `json:"alpha"`
	Norm         bool         `json:"norm"`
	UniformPrior bool         `json:"uniform_prior"`
	MaxTableSize int          `json:"max_table_size"`
	Semi         fileSemi     `json:"semi"`
	NoHanChars   bool         `json:"no_han_chars"`
	Select       Selection    `json:"select"`
	Calibrate    bool         `json:"calibrate,omitempty"` // absent from older files
	// Reweight is the passes of reweighting made, 0 (absent) for none, as
	// in files of builds without it; ReweightRate their rate.
	Reweight     int     `json:"reweight,omitempty"`
	ReweightRate float64 `json:"reweight_rate,omitempty"`
}

type fileTokenize struct {
	MinLen         int                  `json:"min_len"`
	HanMinLen      int                  `json:"han_min_len"`
	KeepCase       bool                 `json:"keep_case"`
	Stopwords      tokenize.StopwordSet `json:"stopwords"`
	Stem           bool                 `json:"stem"`
	SplitCompounds bool                 `json:"split_compounds"`
	WordNGrams     fileRange            `json:"word_ngrams"`
	HanChars       fileRange            `json:"han_chars"`
	NoHanWords     bool                 `json:"no_han_words"`
	Lang           tokenize.Lang        `json:"lang"`
}

type fileRange struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

type fileVocab struct {
	MinDF       int     `json:"min_df"`
	MaxDF       float64 `json:"max_df"`
	MaxFeatures int     `json:"max_features"`
	Binary      bool    `json:"binary"`
}

type fileTFIDF struct {
	LinearTF bool           `json:"linear_tf"`
	NoSmooth bool           `json:"no_smooth"`
	Norm     vectorize.Norm `json:"norm"`
}

type fileSemi struct {
	Method        SemiMethod `json:"method"`
	K             float64    `json:"k"`
	Threshold     float64    `json:"threshold"`
	Rounds        int        `json:"rounds"`
	Lambda        float64    `json:"lambda"`
	RawPosteriors bool       `json:"raw_posteriors"`
}

// fileVocab, fileTFIDF and fileSemi have the fields of their Config
// counterparts in the same order, so they convert, and a field added to one
// side alone breaks the build; fileTokenize's ranges are types of their
// own, so it is copied field by field.
func newFileConfig(c Config) fileConfig {
	t := c.Tokenize
	return fileConfig{
		Tokenize: fileTokenize{
			MinLen: t.MinLen, HanMinLen: t.HanMinLen, KeepCase: t.KeepCase, Stopwords: t.Stopwords,
			Stem: t.Stem, SplitCompounds: t.SplitCompounds,
			WordNGrams: fileRange(t.WordNGrams), HanChars: fileRange(t.HanChars),
			NoHanWords: t.NoHanWords, Lang: t.Lang,
		},
		Vectorizer:   c.Vectorizer,
		Vocab:        fileVocab(c.Vocab),
		HashFeatures: c.HashFeatures,
		Weighting:    c.Weighting,
		TFIDF:        fileTFIDF(c.TFIDFOptions),
		Classifier:   c.Classifier,
		Alpha:        c.Alpha,
		Norm:         c.Norm,
		UniformPrior: c.UniformPrior,
		MaxTableSize: c.MaxTableSize,
		Semi:         fileSemi(c.Semi),
		NoHanChars:   c.NoHanChars,
		Select:       c.Select,
		Calibrate:    c.Calibrate,
		Reweight:     max(c.Reweight, 0),
		ReweightRate: c.ReweightRate,
	}
}

func (f fileConfig) config() Config {
	t := f.Tokenize
	c := Config{
		Tokenize: tokenize.Config{
			MinLen: t.MinLen, HanMinLen: t.HanMinLen, KeepCase: t.KeepCase, Stopwords: t.Stopwords,
			Stem: t.Stem, SplitCompounds: t.SplitCompounds,
			WordNGrams: tokenize.NGramRange(t.WordNGrams), HanChars: tokenize.NGramRange(t.HanChars),
			NoHanWords: t.NoHanWords, Lang: t.Lang,
		},
		Vectorizer:   f.Vectorizer,
		Vocab:        vectorize.VocabConfig(f.Vocab),
		HashFeatures: f.HashFeatures,
		Weighting:    f.Weighting,
		TFIDFOptions: TFIDFOptions(f.TFIDF),
		Classifier:   f.Classifier,
		Alpha:        f.Alpha,
		Norm:         f.Norm,
		UniformPrior: f.UniformPrior,
		MaxTableSize: f.MaxTableSize,
		Semi:         Semi(f.Semi),
		NoHanChars:   f.NoHanChars,
		Select:       f.Select,
		Calibrate:    f.Calibrate,
		Reweight:     -1, // none, unless the file names passes
		ReweightRate: f.ReweightRate,
	}
	if f.Reweight > 0 {
		c.Reweight = f.Reweight
	}
	return c
}

// legacyConfig is Config as formats 1 and 2 wrote it. encoding/json
// matches its field names to the file's keys in any letter case.
type legacyConfig struct {
	Tokenize struct {
		MinLen, HanMinLen    int
		KeepCase             bool
		Stopwords            tokenize.StopwordSet // written by name already
		Stem, SplitCompounds bool
		WordNGrams, HanChars fileRange // "Min", "Max": keys match tags in any case
		NoHanWords           bool
		Lang                 tokenize.Lang // written by name already
	}
	Vectorizer uint8
	Vocab      struct {
		MinDF       int
		MaxDF       float64
		MaxFeatures int
		Binary      bool
	}
	HashFeatures int
	Weighting    uint8
	TFIDFOptions struct {
		LinearTF, NoSmooth bool
		Norm               uint8
	}
	Classifier         uint8
	Alpha              float64
	Norm, UniformPrior bool
	MaxTableSize       int
	Semi               struct {
		Method        uint8
		K, Threshold  float64
		Rounds        int
		Lambda        float64
		RawPosteriors bool
	}
	NoHanChars bool
	Select     struct {
		Method uint8 `json:"method"`
		K      int   `json:"k"`
	}
}

// fileConfig converts c as it is: values out of range stay out of range,
// for header.check to refuse. Tokenize has fileTokenize's fields in the
// same order, untagged, so it converts.
func (c legacyConfig) fileConfig() fileConfig {
	t, v, o, s := c.Tokenize, c.Vocab, c.TFIDFOptions, c.Semi
	if t.WordNGrams == (fileRange{}) {
		// Builds of format 1 and 2 read a zero range as words alone;
		// tokenize's zero now means its DefaultWordNGrams.
		t.WordNGrams.Min, t.WordNGrams.Max = 1, 1
	}
	return fileConfig{
		Tokenize:     fileTokenize(t),
		Vectorizer:   Vectorizer(c.Vectorizer),
		Vocab:        fileVocab(v),
		HashFeatures: c.HashFeatures,
		Weighting:    Weighting(c.Weighting),
		TFIDF:        fileTFIDF{LinearTF: o.LinearTF, NoSmooth: o.NoSmooth, Norm: vectorize.Norm(o.Norm)},
		Classifier:   legacyClassifier(c.Classifier),
		Alpha:        c.Alpha,
		Norm:         c.Norm,
		UniformPrior: c.UniformPrior,
		MaxTableSize: c.MaxTableSize,
		Semi: fileSemi{Method: SemiMethod(s.Method), K: s.K, Threshold: s.Threshold, Rounds: s.Rounds,
			Lambda: s.Lambda, RawPosteriors: s.RawPosteriors},
		NoHanChars: c.NoHanChars,
		Select:     Selection{Method: SelectMethod(c.Select.Method), K: c.Select.K},
	}
}

// legacyClassifier maps a classifier as formats 1 and 2 numbered it
// (cnb 0, mnb 1, bnb 2) to Classifier, keeping a number out of range out
// of range.
func legacyClassifier(v uint8) Classifier {
	return Classifier(min(int(v)+1, math.MaxUint8))
}

// decodeHeader reads the JSON header of a text model file of the given
// format version.
func decodeHeader(js []byte, version uint32) (header, error) {
	if version >= 3 {
		var h header
		err := json.Unmarshal(js, &h)
		return h, err
	}
	var old struct {
		header
		Config legacyConfig `json:"config"` // hides header.Config
	}
	err := json.Unmarshal(js, &old)
	old.header.Config = old.Config.fileConfig()
	return old.header, err
}

// checkEnums reports an enumeration out of range, which only a format 1 or
// 2 file can hold (format 3 names them, and names are checked as read),
// and Classifier Auto, which training resolves before a model is written.
func (c Config) checkEnums() error {
	if c.Classifier == Auto {
		return errors.New("classifier auto: a model names the classifier it was fitted with")
	}
	if c.Reweight > maxReweight || !(c.ReweightRate >= 0 && c.ReweightRate <= maxReweightRate) || (c.Reweight > 0) != (c.ReweightRate > 0) {
		return fmt.Errorf("%d reweighting passes at rate %g", c.Reweight, c.ReweightRate)
	}
	if c.Vectorizer > Hash || c.Weighting > Rennie || c.Classifier > Bernoulli || c.TFIDFOptions.Norm > vectorize.NoNorm ||
		c.Semi.Method > EM || c.Select.Method > DocFreq {
		return fmt.Errorf("unknown vectorizer, weighting, classifier, norm, semi-supervised method or selection (%d, %d, %d, %d, %d, %d)",
			c.Vectorizer, c.Weighting, c.Classifier, c.TFIDFOptions.Norm, c.Semi.Method, c.Select.Method)
	}
	return nil
}
