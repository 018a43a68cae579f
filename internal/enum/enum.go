// Package enum names the values of enumerations, and lists names in
// prose, the same way for pipeline, table and the priors.
package enum

import (
	"fmt"
	"strings"
)

// String is names[i], or "unknown(i)" for an i out of range.
func String(names []string, i int) string {
	if i < 0 || i >= len(names) {
		return fmt.Sprintf("unknown(%d)", i)
	}
	return names[i]
}

// Parse returns the index of the name s, in any letter case; otherwise it
// reports an error wrapping sentinel that says what s should have named.
func Parse(sentinel error, what string, names []string, s string) (int, error) {
	for i, n := range names {
		if strings.EqualFold(s, n) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%w: %s %q is not one of %s", sentinel, what, s, strings.Join(names, ", "))
}

// Join joins a, b and c as "a, b and c".
func Join(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := s[0]
	for _, v := range s[1 : len(s)-1] {
		out += ", " + v
	}
	return out + " and " + s[len(s)-1]
}
