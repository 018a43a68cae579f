package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/priors"
	"github.com/textnb/textnb/internal/table"
	"github.com/textnb/textnb/internal/tally"
	"github.com/textnb/textnb/mail"
	"github.com/textnb/textnb/nb"
)

// predictRequest is the body of POST /v1/models/{name}/predict: exactly one
// of Text, Mail, Texts and Rows.
type predictRequest struct {
	Text *string `json:"text"`
	// Mail is a raw message (RFC 5322), decoded as the model's training
	// corpus's mail was (see package mail) and then classified as a text.
	Mail  *string           `json:"mail"`
	Texts []string          `json:"texts"`
	Rows  []json.RawMessage `json:"rows"`
	// Top lists the K most probable classes, most probable first; for a
	// multi-label model, the K most probable labels are the prediction.
	Top int `json:"top"`
	// Threshold predicts every label of a multi-label model whose
	// probability reaches it, instead of the labels' learned thresholds;
	// for a two-class text model it is {"LABEL": P}: LABEL iff its
	// probability reaches P, else the other class, instead of the model's
	// stored threshold or its most probable class.
	Threshold *requestThreshold `json:"threshold"`
	// Explain explains each prediction by its K terms of largest
	// contribution: true means DefaultExplainTerms.
	Explain explainTerms `json:"explain"`
	// Priors are the class priors of the input, to correct the
	// probabilities for (Saerens et al. 2002); every class once.
	Priors map[string]float64 `json:"priors"`
}

// decodeMail renders a raw message as the document text m's training
// corpus's messages were rendered as: with its feature groups, or all of
// them for a model not trained on mail.
func decodeMail(m *model, raw string) string {
	var c mail.Config
	if m.text != nil && m.text.MailFeatures != "" {
		var f mail.Features
		if err := f.UnmarshalText([]byte(m.text.MailFeatures)); err == nil {
			c = mail.WithFeatures(f)
		}
	}
	return mail.Decode([]byte(raw), c).Text
}

// bufs recycles response buffers of up to maxPooled bytes.
var bufs = sync.Pool{New: func() any { return new([]byte) }}

const maxPooled = 1 << 20

func (s *Server) predict(w http.ResponseWriter, r *http.Request) {
	m := s.served(w, r)
	if m == nil {
		return
	}
	var req predictRequest
	if code, msg := s.decode(w, r, &req); code != 0 {
		writeError(w, code, msg)
		return
	}
	single := req.Text != nil
	n := 0
	for _, given := range []bool{single, req.Mail != nil, req.Texts != nil, req.Rows != nil} {
		if given {
			n++
		}
	}
	if n != 1 {
		writeError(w, http.StatusBadRequest, `give exactly one of "text", "mail", "texts" and "rows"`)
		return
	}
	if req.Mail != nil {
		if m.table != nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf(`model %q is a table model: send "rows"`, m.name))
			return
		}
		text := decodeMail(m, *req.Mail)
		req.Text, req.Mail = &text, nil
	}
	if batch := max(len(req.Texts), len(req.Rows)); batch > s.opt.MaxBatch {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a batch of %d exceeds the limit of %d documents or rows per request (--max-batch)", batch, s.opt.MaxBatch))
		return
	}
	if msg := misfit(m, &req); msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	switch {
	case m.table == nil && req.Rows != nil:
		writeError(w, http.StatusBadRequest, fmt.Sprintf(`model %q is a %s model: send "text" or "texts"`, m.name, m.kind()))
		return
	case m.table != nil && req.Rows == nil:
		writeError(w, http.StatusBadRequest, fmt.Sprintf(`model %q is a table model: send "rows"`, m.name))
		return
	case m.table != nil && req.Explain > 0:
		writeError(w, http.StatusBadRequest, fmt.Sprintf(`model %q is a table model: "explain" applies to text models`, m.name))
		return
	case req.Top < 0:
		writeError(w, http.StatusBadRequest, fmt.Sprintf(`"top" is %d: want K ≥ 0`, req.Top))
		return
	}
	o := output{m: m, top: min(req.Top, len(m.classes)), explain: int(req.Explain), counts: make([]float64, len(m.classes))}
	if t := req.Threshold; t != nil {
		if m.multi != nil {
			o.threshold = &t.p
		} else {
			d, err := m.text.NewThreshold(t.label, t.p)
			if err != nil {
				writeError(w, http.StatusBadRequest, fmt.Sprintf(`"threshold": %v`, err))
				return
			}
			o.decision = &d
		}
	}
	if req.Priors != nil {
		sh, err := priorShift(m, req.Priors)
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		o.shift = &sh
	}
	buf := bufs.Get().(*[]byte)
	b := (*buf)[:0]
	defer func() {
		if cap(b) <= maxPooled {
			*buf = b[:0]
			bufs.Put(buf)
		}
	}()
	b = append(b, `{"model":`...)
	b = strconv.AppendQuote(b, m.name) // names are plain ASCII
	b = append(b, `,"generation":`...)
	b = strconv.AppendUint(b, m.generation, 10)
	var err error
	var code int
	switch {
	case m.text != nil:
		b, err = o.texts(r, b, req.Text, req.Texts)
		code = http.StatusServiceUnavailable // only waiting for a Predictor fails
	case m.multi != nil:
		b, err = o.multiTexts(r, b, req.Text, req.Texts)
		code = http.StatusServiceUnavailable
	default:
		b, code, err = o.rows(b, req.Rows)
	}
	if err != nil {
		writeError(w, code, err.Error())
		return
	}
	b = append(b, "}\n"...)
	for c, k := range o.counts {
		if k > 0 {
			m.predicted[c].Add(k)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

// misfit returns why req asks what m's kind does not do, or "": the
// multi-label options for a single-label model, and the reverse.
func misfit(m *model, req *predictRequest) string {
	t := req.Threshold
	switch {
	case m.table != nil && t != nil:
		return fmt.Sprintf(`model %q is a table model: "threshold" applies to text and multi-label models`, m.name)
	case m.text != nil && t != nil && t.label == "":
		return fmt.Sprintf(`model %q is a text model: "threshold" names a class with its probability, as {%q: %g}`, m.name, m.classes[0], t.p)
	case m.multi == nil:
		return ""
	case req.Priors != nil:
		return fmt.Sprintf(`model %q is a multi-label model: "priors" apply to single-label models (each label is decided on its own)`, m.name)
	case t != nil && t.label != "":
		return fmt.Sprintf(`model %q is a multi-label model: "threshold" is one probability for every label`, m.name)
	case t != nil && !(t.p >= 0 && t.p <= 1):
		return fmt.Sprintf(`"threshold" is %g: want a probability from 0 to 1`, t.p)
	case t != nil && req.Top != 0:
		return `give at most one of "top" and "threshold"`
	}
	return ""
}

// decode reads the JSON body into v, refusing unknown fields, trailing
// data and bodies over the limit; it returns 0 or the error's status.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) (int, string) {
	body := http.MaxBytesReader(w, r.Body, s.opt.MaxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, err = dec.Token(); err == io.EOF {
			return 0, ""
		} else if err == nil {
			err = errors.New("data after the JSON object")
		}
	}
	var tooBig *http.MaxBytesError
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body exceeds the limit of %d bytes (--max-body)", tooBig.Limit)
	case err == io.EOF:
		return http.StatusBadRequest, "empty request body: send a JSON object"
	case errors.As(err, &syntax):
		return http.StatusBadRequest, fmt.Sprintf("invalid JSON at byte %d: %v", syntax.Offset, err)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return http.StatusBadRequest, fmt.Sprintf("the body is a JSON %s: send an object", typ.Value)
		}
		return http.StatusBadRequest, fmt.Sprintf("field %q: a JSON %s where %s was expected", typ.Field, typ.Value, typeName(typ.Type.String()))
	}
	return http.StatusBadRequest, strings.TrimPrefix(err.Error(), "json: ")
}

func typeName(goType string) string {
	switch goType {
	case "string", "*string":
		return "a string"
	case "[]string":
		return "an array of strings"
	case "int":
		return "an integer"
	case "float64", "*float64":
		return "a number"
	case "map[string]float64":
		return "an object of numbers keyed by class"
	case "*serve.requestThreshold":
		return `a number (multi-label models) or an object {"LABEL": P} (two-class text models)`
	case "[]json.RawMessage":
		return "an array of rows"
	}
	return goType
}

// priorShift returns the correction of m's probabilities to the priors
// given.
func priorShift(m *model, given map[string]float64) (nb.PriorShift, error) {
	target, err := priors.FromMap(given, m.classes)
	if err != nil {
		return nb.PriorShift{}, err
	}
	return nb.NewPriorShift(m.assumed, target)
}

// output writes predictions of one request.
type output struct {
	m     *model
	top   int
	shift *nb.PriorShift
	// threshold, if set, picks a multi-label model's labels
	threshold *float64
	// decision, if set, decides a two-class text model's class
	decision *pipeline.Threshold
	// explain is the number of terms of an explanation; 0: none
	explain int
	counts  []float64 // predictions per class
	order   []int
}

// texts appends the predictions for a text or a batch of texts.
func (o *output) texts(r *http.Request, b []byte, text *string, texts []string) ([]byte, error) {
	p, err := o.m.preds.get(r.Context())
	if err != nil {
		return b, fmt.Errorf("gave up waiting for a free predictor: %w", err)
	}
	defer o.m.preds.put(p)
	var proba []float64
	var best int
	if text != nil {
		proba, best = p.Proba(proba, *text)
		b = o.prediction(append(b, ','), proba, best)
		return o.explanation(b, p, *text), nil
	}
	b = append(b, `,"predictions":[`...)
	for i, t := range texts {
		if i > 0 {
			b = append(b, ',')
		}
		proba, best = p.Proba(proba[:0], t)
		b = o.prediction(append(b, '{'), proba, best)
		b = append(o.explanation(b, p, t), '}')
	}
	return append(b, ']'), nil
}

// multiTexts appends a multi-label model's predictions for a text or a
// batch of texts.
func (o *output) multiTexts(r *http.Request, b []byte, text *string, texts []string) ([]byte, error) {
	p, err := o.m.multiPreds.get(r.Context())
	if err != nil {
		return b, fmt.Errorf("gave up waiting for a free predictor: %w", err)
	}
	defer o.m.multiPreds.put(p)
	var proba []float64
	if text != nil {
		proba = p.Proba(proba, *text)
		return o.labels(append(b, ','), p, proba, *text), nil
	}
	b = append(b, `,"predictions":[`...)
	for i, t := range texts {
		if i > 0 {
			b = append(b, ',')
		}
		proba = p.Proba(proba[:0], t)
		b = append(o.labels(append(b, '{'), p, proba, t), '}')
	}
	return append(b, ']'), nil
}

// labels appends the fields of one multi-label prediction (without
// braces), as textnb predict --json prints them: the labels predicted,
// most probable first, with their probabilities, then every label's. The
// labels are those above their thresholds, or the request's top K, or
// those reaching its threshold; if asked for, "explanations" explain
// them, one by one.
func (o *output) labels(b []byte, p *multilabel.Predictor, proba []float64, text string) []byte {
	switch {
	case o.top > 0:
		o.order = tally.Ranked(o.order[:0], proba, o.top)
	case o.threshold != nil:
		o.order = tally.AtLeast(o.order[:0], proba, *o.threshold)
	default:
		o.order = p.Decide(o.order[:0], proba)
	}
	b = append(b, `"labels":[`...)
	for i, l := range o.order {
		o.counts[l]++
		if i > 0 {
			b = append(b, ',')
		}
		b = o.labelP(b, l, proba[l])
	}
	b = o.proba(append(b, ']'), proba)
	if o.explain == 0 {
		return b
	}
	es := p.Explain(text, o.order) // Proba's row: the text is not tokenized again
	for i := range es {
		es[i].Terms = es[i].Terms[:min(len(es[i].Terms), o.explain)]
	}
	js, _ := json.Marshal(es) // plain strings and finite floats
	return append(append(b, `,"explanations":`...), js...)
}

// labelP appends {"label": class c, "p": p}.
func (o *output) labelP(b []byte, c int, p float64) []byte {
	b = append(b, `{"label":`...)
	b = append(b, o.m.classJSON[c]...)
	b = append(b, `,"p":`...)
	b = appendFloat(b, p)
	return append(b, '}')
}

// proba appends "proba", every class's probability.
func (o *output) proba(b []byte, proba []float64) []byte {
	b = append(b, `,"proba":{`...)
	for c, p := range proba {
		if c > 0 {
			b = append(b, ',')
		}
		b = append(b, o.m.classJSON[c]...)
		b = append(b, ':')
		b = appendFloat(b, p)
	}
	return append(b, '}')
}

// explanation appends the explanation of text, if asked for: the model's
// own scores, before any prior correction.
func (o *output) explanation(b []byte, p *pipeline.Predictor, text string) []byte {
	if o.explain == 0 {
		return b
	}
	e := p.Explain(text)
	e.Terms = e.Terms[:min(len(e.Terms), o.explain)]
	js, _ := json.Marshal(e) // plain strings and finite floats
	b = append(b, `,"explanation":`...)
	return append(b, js...)
}

// Explanations list at most MaxExplainTerms terms, DefaultExplainTerms for
// "explain": true.
const (
	DefaultExplainTerms = 10
	MaxExplainTerms     = 1000
)

// requestThreshold is a request's "threshold": a number P (label "") or
// an object {"LABEL": P} of one class.
type requestThreshold struct {
	label string
	p     float64
}

func (t *requestThreshold) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &t.p); err == nil {
		return nil
	}
	var named map[string]float64
	if err := json.Unmarshal(b, &named); err == nil && len(named) == 1 {
		for t.label, t.p = range named {
		}
		return nil
	} else if err == nil {
		return fmt.Errorf(`"threshold" names %d classes: want one, as {"LABEL": P}`, len(named))
	}
	kind := "value"
	switch bytes.TrimLeft(b, " \t\r\n")[0] {
	case '"':
		kind = "string"
	case '[':
		kind = "array"
	case 't', 'f':
		kind = "bool"
	case '{':
		kind = "object"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		kind = "number " + string(b)
	}
	return &json.UnmarshalTypeError{Value: kind, Type: reflect.TypeFor[*requestThreshold]()} // encoding/json names the field
}

// explainTerms reads "explain": true, false or a number of terms.
type explainTerms int

func (e *explainTerms) UnmarshalJSON(b []byte) error {
	switch s := string(b); s {
	case "true":
		*e = DefaultExplainTerms
		return nil
	case "false", "null":
		*e = 0
		return nil
	}
	k, err := strconv.Atoi(string(b))
	if err != nil || k < 0 {
		return fmt.Errorf(`"explain" is %.40s: want true, false or a number of terms ≥ 0`, b)
	}
	*e = explainTerms(min(k, MaxExplainTerms))
	return nil
}

// rows appends the predictions for table rows, each an array of the
// model's features in order or an object keyed by feature name.
func (o *output) rows(b []byte, rows []json.RawMessage) ([]byte, int, error) {
	t := o.m.table
	x := make([]float64, 0, len(t.Features))
	var proba []float64
	b = append(b, `,"predictions":[`...)
	for i, raw := range rows {
		var err error
		if x, err = row(x[:0], t, raw); err != nil {
			return b, http.StatusBadRequest, fmt.Errorf("row %d: %w", i, err)
		}
		var best int
		proba, best, err = t.Proba(proba[:0], x)
		switch {
		case errors.Is(err, table.ErrOverflow):
			return b, http.StatusUnprocessableEntity, fmt.Errorf("row %d: %w", i, err)
		case err != nil:
			return b, http.StatusBadRequest, fmt.Errorf("row %d: %w", i, err)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = o.prediction(append(b, '{'), proba, best)
		b = append(b, '}')
	}
	return append(b, ']'), 0, nil
}

// row decodes one table row into x.
func row(x []float64, t *table.Table, raw json.RawMessage) ([]float64, error) {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) > 0 && raw[0] == '{' {
		var named map[string]*float64
		if err := json.Unmarshal(raw, &named); err != nil {
			return x, errors.New("want an object of numbers keyed by feature name")
		}
		var missing []string
		for _, f := range t.Features {
			v := named[f]
			if v == nil {
				missing = append(missing, strconv.Quote(f))
				continue
			}
			x = append(x, *v)
		}
		if missing != nil {
			return x, fmt.Errorf("no number for feature %s", strings.Join(missing, ", "))
		}
		return x, nil
	}
	var vals []*float64
	if err := json.Unmarshal(raw, &vals); err != nil {
		return x, errors.New("want an array of numbers or an object keyed by feature name")
	}
	if len(vals) != len(t.Features) {
		return x, fmt.Errorf("%d values for a model of %d features (%s)", len(vals), len(t.Features), strings.Join(t.Features, ", "))
	}
	for j, v := range vals {
		if v == nil {
			return x, fmt.Errorf("feature %q is null", t.Features[j])
		}
		x = append(x, *v)
	}
	return x, nil
}

// prediction appends the fields of one prediction (without braces).
func (o *output) prediction(b []byte, proba []float64, best int) []byte {
	switch {
	case o.decision != nil:
		if o.shift != nil {
			o.shift.Apply(proba)
		}
		best = o.decision.Decide(proba)
	case o.shift != nil && o.m.text != nil:
		o.shift.Apply(proba)
		best = o.m.text.Decide(proba) // by the model's threshold, if it has one
	case o.shift != nil:
		o.shift.Apply(proba)
		best = nb.Argmax(proba)
	}
	o.counts[best]++
	m := o.m
	b = append(b, `"label":`...)
	b = o.proba(append(b, m.classJSON[best]...), proba)
	if o.top > 0 {
		o.order = tally.Ranked(o.order[:0], proba, o.top)
		b = append(b, `,"top":[`...)
		for i, c := range o.order {
			if i > 0 {
				b = append(b, ',')
			}
			b = o.labelP(b, c, proba[c])
		}
		b = append(b, ']')
	}
	return b
}

// appendFloat writes v as a JSON number (null if it is not finite, which
// JSON cannot carry).
func appendFloat(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}
