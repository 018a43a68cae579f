package textnb_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/textnb/textnb"
)

// must returns v, or ends the program on an error.
func must[T any](v T, err error) T {
	if err != nil {
		log.Fatal(err)
	}
	return v
}

// Open a model file of each kind, predict with it, and serve the three
// over HTTP on 127.0.0.1.
func ExampleHandler_everyKind() {
	models := []textnb.Served{{Name: "news-v2"}, {Name: "gaussian-v2"}, {Name: "multilabel-v3"}}
	inputs := []textnb.Input{{Text: "the striker scored twice"}, {Row: []float64{5.0, 3.4, 7, 0}}, {Text: "shares of the chip maker rose"}}
	bodies := []string{`{"text": "the striker scored twice"}`, `{"rows": [[5.0, 3.4, 7, 0]]}`, `{"text": "shares of the chip maker rose"}`}
	for i := range models {
		c := must(textnb.Open("testdata/models/" + models[i].Name + ".model"))
		fmt.Println(c.Kind(), must(c.PredictInput(inputs[i])))
		models[i].Model = c
	}
	srv := httptest.NewServer(textnb.Handler(models...)) // on 127.0.0.1
	defer srv.Close()
	for i, m := range models {
		res := must(http.Post(srv.URL+"/v1/models/"+m.Name+"/predict", "application/json", strings.NewReader(bodies[i])))
		io.Copy(os.Stdout, res.Body)
		res.Body.Close()
	}
	// Output:
	// text model {sport [] [{finance 0.19450344987719137} {food 0.21149578674819738} {sport 0.35853012998822953} {tech 0.23547063338638097}]}
	// table model {setosa [] [{setosa 0.9999999999998384} {versicolor 1.614432152598846e-13}]}
	// multi-label model {finance [finance tech] [{sport 0.18931327237508352} {finance 0.35458218063034486} {tech 0.2804172827485611} {health 0.17568726424601103}]}
	// {"model":"news-v2","generation":1,"label":"sport","proba":{"finance":0.19450344987719137,"food":0.21149578674819738,"sport":0.35853012998822953,"tech":0.23547063338638097}}
	// {"model":"gaussian-v2","generation":1,"predictions":[{"label":"setosa","proba":{"setosa":0.9999999999998384,"versicolor":1.614432152598846e-13}}]}
	// {"model":"multilabel-v3","generation":1,"labels":[{"label":"finance","p":0.35458218063034486},{"label":"tech","p":0.2804172827485611}],"proba":{"sport":0.18931327237508352,"finance":0.35458218063034486,"tech":0.2804172827485611,"health":0.17568726424601103}}
}
