package textfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unsafe"
)

// ErrNotObject: a JSONL line is valid JSON but not an object.
var ErrNotObject = errors.New("not a JSON object")

// JSONFields validates line and returns the raw values of its top-level
// fields a and b ("" if absent; the last one wins if repeated, as in
// encoding/json).
//
// The line is validated by encoding/json, then scanned by hand: unmarshaling
// into a map costs about 20 allocations per line, this costs one or none.
func JSONFields(line, a, b string) (rawA, rawB string, err error) {
	err = JSONObject(line, func(key, val string) {
		switch {
		case keyIs(key, b):
			rawB = val
		case keyIs(key, a):
			rawA = val
		}
	})
	return rawA, rawB, err
}

// JSONObject validates line as one JSON object and calls f with the literal
// of each of its top-level keys (see Unquote) and the raw value, in order.
func JSONObject(line string, f func(key, val string)) error {
	if !json.Valid(unsafe.Slice(unsafe.StringData(line), len(line))) { // only read: no copy of a long line
		return invalidJSON(line)
	}
	return eachField(line, f)
}

// invalidJSON explains why line is not valid JSON.
func invalidJSON(line string) error {
	var v any
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	return errors.New("invalid JSON")
}

// eachField calls f with the key literal and raw value of each top-level
// field of s, which must be valid JSON.
func eachField(s string, f func(key, val string)) error {
	i := skipSpace(s, 0)
	if s[i] != '{' {
		return ErrNotObject
	}
	i = skipSpace(s, i+1)
	for s[i] != '}' {
		end := skipString(s, i)
		key := s[i:end]
		i = skipSpace(s, skipSpace(s, end)+1) // past the colon
		end = skipValue(s, i)
		f(key, s[i:end])
		i = skipSpace(s, end)
		if s[i] == ',' {
			i = skipSpace(s, i+1)
		}
	}
	return nil
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string literal at s[i].
func skipString(s string, i int) int {
	for i++; s[i] != '"'; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i + 1
}

// skipValue returns the index just past the JSON value at s[i].
func skipValue(s string, i int) int {
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
		depth := 0
		for {
			switch s[i] {
			case '"':
				i = skipString(s, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	for i < len(s) && !strings.ContainsRune(",}] \t\r\n", rune(s[i])) {
		i++
	}
	return i
}

// keyIs reports whether the string literal key spells name.
func keyIs(key, name string) bool {
	if strings.IndexByte(key, '\\') < 0 {
		return key[1:len(key)-1] == name
	}
	return Unquote(key) == name
}

// Unquote returns the value of a valid JSON string literal, a substring of
// lit if it has no escapes.
func Unquote(lit string) string {
	if strings.IndexByte(lit, '\\') < 0 {
		return lit[1 : len(lit)-1]
	}
	var s string
	_ = json.Unmarshal([]byte(lit), &s) // valid by construction
	return s
}
