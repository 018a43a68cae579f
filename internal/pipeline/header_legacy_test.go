package pipeline

import (
	"testing"

	"github.com/textnb/textnb/tokenize"
)

// A format 2 header's tokenizer settings, Go field names in any letter
// case, reach Config field by field, the n-gram ranges included.
func TestLegacyHeaderTokenize(t *testing.T) {
	js := `{"config":{"Tokenize":{"MinLen":3,"HanMinLen":2,"KeepCase":true,"Stem":true,"SplitCompounds":true,` +
		`"WordNGrams":{"Min":1,"Max":3},"hanchars":{"min":2,"max":2},"NoHanWords":true},"Classifier":1,"Alpha":0.5}}`
	h, err := decodeHeader([]byte(js), 2)
	if err != nil {
		t.Fatal(err)
	}
	c := h.Config.config()
	want := tokenize.Config{MinLen: 3, HanMinLen: 2, KeepCase: true, Stem: true, SplitCompounds: true,
		WordNGrams: tokenize.NGramRange{Min: 1, Max: 3}, HanChars: tokenize.NGramRange{Min: 2, Max: 2}, NoHanWords: true}
	if c.Tokenize != want || c.Classifier != Multinomial || c.Alpha != 0.5 {
		t.Errorf("read %+v, classifier %v, alpha %g; want %+v, mnb, 0.5", c.Tokenize, c.Classifier, c.Alpha, want)
	}
}
