package mail

import (
	"bytes"
	netmail "net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/textnb/textnb/internal/mailfile"
)

// parseDate reads a Date field's value as RFC 5322 has it and, failing
// that, as mailers write it wrongly: a zone that is missing, misspelt
// ("+-0500") or a name ("Eastern Daylight Time") is read as UTC, and
// asctime ("Sat Sep 21 08:18:08 2002") and "2002/09/14 Sat 02:29:32"
// forms are read. It reports false when no date is found.
func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if t, err := netmail.ParseDate(s); err == nil {
		return t, true
	}
	if m := rfcDate.FindStringSubmatch(s); m != nil {
		return civil(m[3], m[2], m[1], m[4], m[5], m[6])
	}
	if m := ascDate.FindStringSubmatch(s); m != nil {
		return civil(m[6], m[1], m[2], m[3], m[4], m[5])
	}
	if m := slashDate.FindStringSubmatch(s); m != nil {
		y, mo, d := m[1], m[2], m[3]
		n, _ := strconv.Atoi(mo)
		if n < 1 || n > 12 {
			return time.Time{}, false
		}
		return civil(y, time.Month(n).String()[:3], d, m[4], m[5], m[6])
	}
	return time.Time{}, false
}

var (
	// day month year hour:minute[:second], whatever follows
	rfcDate = regexp.MustCompile(`(?i)\b(\d{1,2})\s+([a-z]{3})[a-z]*\s+(\d{2,4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?`)
	// asctime, an mbox From line's: month day hour:minute:second year
	ascDate = regexp.MustCompile(`(?i)\b([a-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s+(?:[a-z]+\s+)?(\d{4})\b`)
	// year/month/day [weekday] hour:minute:second
	slashDate = regexp.MustCompile(`\b(\d{4})/(\d{1,2})/(\d{1,2})\s+(?:[A-Za-z]+\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?`)
)

// civil returns the UTC time of the fields given as text, or false if
// they are not a date.
func civil(year, month, day, hour, minute, second string) (time.Time, bool) {
	y, err := strconv.Atoi(year)
	if err != nil {
		return time.Time{}, false
	}
	switch {
	case len(year) == 2 && y < 50:
		y += 2000
	case len(year) == 2 || len(year) == 3:
		y += 1900
	}
	mo := -1
	for m := time.January; m <= time.December; m++ {
		if strings.EqualFold(month, m.String()[:3]) {
			mo = int(m)
		}
	}
	d, _ := strconv.Atoi(day)
	h, _ := strconv.Atoi(hour)
	mi, _ := strconv.Atoi(minute)
	sec := 0
	if second != "" {
		sec, _ = strconv.Atoi(second)
	}
	if mo < 0 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 {
		return time.Time{}, false
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, 0, time.UTC), true
}

// messageDate returns the date of a message whose header is h and whose
// raw bytes, before any mbox From line was stripped, are raw: its Date
// field, or else its From line's delivery date.
func messageDate(h header, raw []byte) time.Time {
	if t, ok := parseDate(h.get("date")); ok {
		return t
	}
	if bytes.HasPrefix(raw, []byte("From ")) {
		line, _ := mailfile.NextLine(raw, 0)
		if t, ok := parseDate(string(line)); ok {
			return t
		}
	}
	return time.Time{}
}
