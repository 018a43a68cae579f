package serve

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are a Server's Prometheus metrics, in a registry of its own so
// that several Servers (or tests) do not collide.
type metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	predictions *prometheus.CounterVec
	loadSeconds *prometheus.GaugeVec
	generation  *prometheus.GaugeVec
	failures    *prometheus.CounterVec
	loadError   *prometheus.GaugeVec

	updates         *prometheus.CounterVec
	replayed        *prometheus.CounterVec
	superseded      *prometheus.CounterVec
	compactFailures *prometheus.CounterVec
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "textnb_http_requests_total", Help: "HTTP requests by handler and status code.",
		}, []string{"handler", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "textnb_http_request_duration_seconds", Help: "Time to answer an HTTP request, by handler.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"handler"}),
		predictions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "textnb_predictions_total", Help: "Documents or rows classified, by model and predicted class (each label of a multi-label prediction).",
		}, []string{"model", "class"}),
		loadSeconds: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "textnb_model_load_seconds", Help: "Time the served version of a model took to load and warm.",
		}, []string{"model"}),
		generation: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "textnb_model_generation", Help: "Version of a model being served: 1 at start, +1 per successful reload.",
		}, []string{"model"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "textnb_model_load_failures_total", Help: "Failed loads of a model file (the previous version keeps serving).",
		}, []string{"model"}),
		loadError: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "textnb_model_load_error", Help: "1 while the last load of a model file failed, else 0.",
		}, []string{"model"}),
	}
	m.updates = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "textnb_learned_documents_total", Help: "Documents learned or unlearned through the API and acknowledged (in the journal, synced), by model and op.",
	}, []string{"model", "op"})
	m.replayed = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "textnb_journal_replayed_documents_total", Help: "Documents replayed from a model's journal when its file loaded.",
	}, []string{"model"})
	m.superseded = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "textnb_journal_superseded_total", Help: "Journals set aside because their model file was replaced by another (a new training).",
	}, []string{"model"})
	m.compactFailures = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "textnb_journal_compaction_failures_total", Help: "Failed compactions of a journal into its model file (the journal keeps the updates).",
	}, []string{"model"})
	m.reg.MustRegister(m.updates, m.replayed, m.superseded, m.compactFailures)
	m.reg.MustRegister(m.requests, m.latency, m.predictions, m.loadSeconds, m.generation, m.failures, m.loadError,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// loaded records a model about to be served and gives it its counters.
func (met *metrics) loaded(m *model) {
	m.predicted = make([]prometheus.Counter, len(m.classes))
	for c, name := range m.classes {
		m.predicted[c] = met.predictions.WithLabelValues(m.name, name)
	}
	met.loadSeconds.WithLabelValues(m.name).Set(m.loadTime.Seconds())
	met.generation.WithLabelValues(m.name).Set(float64(m.generation))
	met.loadError.WithLabelValues(m.name).Set(0)
}

func (met *metrics) loadFailed(name string) {
	met.failures.WithLabelValues(name).Inc()
	met.loadError.WithLabelValues(name).Set(1)
}

// journalCollector reports the journals' syncs, compactions and sizes.
type journalCollector struct {
	s                          *Server
	syncs, compactions, nbytes *prometheus.Desc
}

func newJournalCollector(s *Server) *journalCollector {
	return &journalCollector{s: s,
		syncs:       prometheus.NewDesc("textnb_journal_syncs_total", "Syncs of a model's journal; each makes durable every update written since the last (group commit).", []string{"model"}, nil),
		compactions: prometheus.NewDesc("textnb_journal_compactions_total", "Journals written into their model file.", []string{"model"}, nil),
		nbytes:      prometheus.NewDesc("textnb_journal_bytes", "Size of a model's journal file.", []string{"model"}, nil),
	}
}

func (c *journalCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.syncs
	ch <- c.compactions
	ch <- c.nbytes
}

func (c *journalCollector) Collect(ch chan<- prometheus.Metric) {
	for _, name := range c.s.names {
		st, ok := c.s.slots[name].stats()
		if !ok {
			continue
		}
		ch <- prometheus.MustNewConstMetric(c.syncs, prometheus.CounterValue, float64(st.Syncs), name)
		ch <- prometheus.MustNewConstMetric(c.compactions, prometheus.CounterValue, float64(st.Compactions), name)
		ch <- prometheus.MustNewConstMetric(c.nbytes, prometheus.GaugeValue, float64(st.Bytes), name)
	}
}
