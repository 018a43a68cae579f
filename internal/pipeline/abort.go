package pipeline

// Abort ends training without a model, for a caller whose input failed
// part way: it waits for the documents being tokenized, then lets go of
// everything added. Later calls to Finish return ErrFinished.
func (t *Trainer) Abort() {
	if t.finished {
		return
	}
	t.finished = true
	if t.run != nil {
		t.run.Close()
	}
	*t = Trainer{cfg: t.cfg, classes: map[string]int{}, finished: true}
}
