package mail

import (
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s int) time.Time {
		return time.Date(y, mo, d, h, mi, s, 0, time.UTC)
	}
	for _, c := range []struct {
		in   string
		want time.Time
	}{
		{"Thu, 22 Aug 2002 18:26:25 +0700", utc(2002, 8, 22, 11, 26, 25)},
		{"Wed, 21 Aug 2002 20:31:57 -1600", utc(2002, 8, 22, 12, 31, 57)},
		{"Thu, 29 Aug 2002 15:36:58 +-0500", utc(2002, 8, 29, 15, 36, 58)},
		{"Thu, 05 Sep 2002 02:00:11", utc(2002, 9, 5, 2, 0, 11)},
		{"Sat, 21 Sep 02 05:01:06 Greenwich Standard Time", utc(2002, 9, 21, 5, 1, 6)},
		{"Sat Sep 21 08:18:08 2002", utc(2002, 9, 21, 8, 18, 8)},
		{"2002/09/14 Sat 02:29:32 CDT", utc(2002, 9, 14, 2, 29, 32)},
		{"Mon, 16 Sep 2002 03:27:38 (GMT)", utc(2002, 9, 16, 3, 27, 38)},
		{"exmh-workers-admin@redhat.com  Thu Aug 22 12:36:23 2002", utc(2002, 8, 22, 12, 36, 23)},
	} {
		got, ok := parseDate(c.in)
		if !ok || !got.Equal(c.want) {
			t.Errorf("parseDate(%q) = %v, %v; want %v", c.in, got.UTC(), ok, c.want)
		}
	}
	for _, in := range []string{"", "tomorrow", "31 Foo 2002 10:00", "2002/13/01 10:00:00", "Thu, 22 Aug 2002 25:00:00"} {
		if got, ok := parseDate(in); ok {
			t.Errorf("parseDate(%q) = %v, true; want no date", in, got)
		}
	}
}

func TestDecodeDate(t *testing.T) {
	msg := "Date: Thu, 22 Aug 2002 18:26:25 +0700\nSubject: hi\n\nbody\n"
	if got := Decode([]byte(msg), Config{}).Date; !got.Equal(time.Date(2002, 8, 22, 11, 26, 25, 0, time.UTC)) {
		t.Errorf("Date header: %v", got)
	}
	from := "From bob@example.com  Thu Aug 22 13:17:22 2002\nDate: not a date\nSubject: hi\n\nbody\n"
	if got := Decode([]byte(from), Config{}).Date; !got.Equal(time.Date(2002, 8, 22, 13, 17, 22, 0, time.UTC)) {
		t.Errorf("From line's date: %v", got)
	}
	if got := Decode([]byte("Subject: hi\n\nbody\n"), Config{}).Date; !got.IsZero() {
		t.Errorf("no date: %v", got)
	}
}
