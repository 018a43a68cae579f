package multilabel

import (
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/pipeline"
)

// Inspect lists the labels with their training documents and top terms,
// and Decode reads what WriteTo wrote.
func TestInspectDecode(t *testing.T) {
	docs := readMultiDocs(t, multiJSONL)
	mm, _ := trainMulti(t, pipeline.Config{}, Config{}, docs)
	info, err := mm.Inspect(3)
	if err != nil {
		t.Fatal(err)
	}
	if info.Kind != "multi-label" || info.Features != mm.NumFeatures() || len(info.Classes) != len(mm.Labels) || info.Settings.Classifier == "" {
		t.Fatalf("Inspect: %+v", info)
	}
	perLabel := map[string]float64{}
	for _, d := range docs {
		for _, l := range d.Labels {
			perLabel[l]++
		}
	}
	for l, c := range info.Classes {
		if c.Name != mm.Labels[l] || c.Documents != perLabel[c.Name] || c.Prior != 0 || len(c.TopWeights) != 3 {
			t.Errorf("label %d: %+v, want %s with %v documents, no prior and 3 terms", l, c, mm.Labels[l], perLabel[mm.Labels[l]])
		}
	}
	back, err := Decode(testkit.Encode(t, mm))
	if err != nil || !slices.Equal(back.Labels, mm.Labels) || !slices.Equal(back.Thresholds, mm.Thresholds) {
		t.Errorf("Decode: %v, %v", back, err)
	}
}
