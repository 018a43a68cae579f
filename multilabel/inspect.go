package multilabel

import "github.com/textnb/textnb/pipeline"

// Inspect describes mm as pipeline.Model.Inspect describes a text model,
// the labels playing the classes: the shared settings with defaults
// resolved, and per label its training documents and its top most
// indicative terms (top ≤ 0: none). Kind is "multi-label". Labels have
// no prior (each is decided against its own threshold), so Prior is 0.
func (mm *Model) Inspect(top int) (pipeline.Info, error) {
	info, err := mm.m.Inspect(top)
	info.Kind = "multi-label"
	for i := range info.Classes {
		info.Classes[i].Prior = 0
	}
	return info, err
}
