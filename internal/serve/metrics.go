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
