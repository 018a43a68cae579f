package pipeline

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/textnb/textnb/internal/modelfile"
)

// Every setting of Config goes through a model file's header and back: a
// field added to Config but not to fileConfig fails here.
func TestHeaderKeepsEveryField(t *testing.T) {
	var c Config
	n := 0
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				fill(v.Field(i))
			}
			return
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Uint8:
			v.SetUint(1) // a valid value of every enumeration, none the zero
		case reflect.Int:
			v.SetInt(int64(2 + n))
		case reflect.Float64:
			v.SetFloat(float64(n) + 0.5)
		default:
			t.Fatalf("Config has a %v field: teach this test and fileConfig about it", v.Type())
		}
		n++
	}
	fill(reflect.ValueOf(&c).Elem())
	c.Fast = false // how training chooses settings, not one a model has
	js, err := json.Marshal(header{Config: newFileConfig(c)})
	if err != nil {
		t.Fatal(err)
	}
	h, err := decodeHeader(js, modelfile.FormatVersion)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Config.config(); !reflect.DeepEqual(got, c) {
		t.Errorf("header %s\nread back as %+v\nwant %+v", js, got, c)
	}
}
