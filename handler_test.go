package textnb_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/textnb/textnb"
)

// Mount the HTTP API in a program's own server, under /textnb/.
func ExampleHandler() {
	m, err := textnb.Train(spam, textnb.Config{})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/textnb/", http.StripPrefix("/textnb", textnb.Handler(textnb.Served{Name: "spam", Model: m})))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	res, err := http.Post(srv.URL+"/textnb/v1/models/spam/predict", "application/json",
		strings.NewReader(`{"text": "claim your free prize"}`))
	if err != nil {
		log.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	fmt.Println(res.StatusCode, strings.Contains(string(body), `"label":"spam"`))
	// Output: 200 true
}

func TestHandlerPanics(t *testing.T) {
	m, err := textnb.Train(spam, textnb.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for name, models := range map[string][]textnb.Served{
		"bad name":  {{Name: "a b", Model: m}},
		"twice":     {{Name: "a", Model: m}, {Name: "a", Model: m}},
		"nil model": {{Name: "a"}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Handler did not panic", name)
				}
			}()
			textnb.Handler(models...)
		}()
	}
}
