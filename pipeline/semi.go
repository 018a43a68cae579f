package pipeline

import (
	"fmt"

	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// fitSemi trains on the labeled rows of X (y ≥ 0) and the unlabeled ones
// (y < 0) with Config.Semi, and returns the counts of the final model.
func (m *Model) fitSemi(X *vectorize.CSR, y []int) (*nb.Counts, error) {
	return nil, fmt.Errorf("%w: semi-supervised method %v is not wired in yet", ErrConfig, m.Config.Semi.Method)
}
