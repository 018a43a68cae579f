package nb

import (
	"fmt"

	"github.com/textnb/textnb/internal/check"
	"github.com/textnb/textnb/vectorize"
)

// addSoftChecked is addSoft after validating its input, for the tests.
func (c *Counts) addSoftChecked(X *vectorize.CSR, resp []float64, scale float64) error {
	if err := c.check(X, len(resp), c.Classes); err != nil {
		return err
	}
	if err := check.Bad(scale); err != nil {
		return fmt.Errorf("%w: scale %g", err, scale)
	}
	if err := check.Weights("responsibility", resp); err != nil {
		return err
	}
	c.addSoft(X, resp, scale)
	return nil
}
