package main

import (
	"encoding/json"
	"fmt"
	"io"

	facade "github.com/textnb/textnb"
)

// plain quotes a name for a field of the command's tab-separated output.
var plain = facade.PlainField

// printJSON writes v as one line of JSON.
func printJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
