package mail

import (
	"net"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// readHTML appends the visible text of an HTML part to the body (not that
// of script and style elements, with a line break for block elements) and
// adds the hosts of its links.
func (d *decoder) readHTML(s string) {
	z := html.NewTokenizer(strings.NewReader(s))
	skip := 0 // inside script or style
	for {
		switch z.Next() {
		case html.ErrorToken:
			return // io.EOF: the tokenizer reads malformed HTML to its end
		case html.TextToken:
			if skip == 0 {
				d.body.WriteString(clean(string(z.Text())))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			switch a {
			case atom.Script, atom.Style:
				skip++
			case atom.Br, atom.P, atom.Div, atom.Tr, atom.Li, atom.Td, atom.Table, atom.H1, atom.H2, atom.H3:
				d.lineBreak()
			}
			for hasAttr {
				var key, val []byte
				key, val, hasAttr = z.TagAttr()
				if d.feat&URLs != 0 && (string(key) == "href" || string(key) == "src" || string(key) == "action") {
					if host := urlHost(string(val)); host != "" {
						d.token("url", host)
					}
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Script, atom.Style:
				if skip > 0 {
					skip--
				}
			case atom.P, atom.Div, atom.Tr, atom.Table:
				d.lineBreak()
			}
		}
	}
}

// lineBreak ends the body's line, once.
func (d *decoder) lineBreak() {
	if s := d.body.String(); s != "" && s[len(s)-1] != '\n' {
		d.body.WriteByte('\n')
	}
}

// urlHost returns the lowercased host of an absolute http(s) or ftp URL,
// or of one that starts with "www.", else "".
func urlHost(u string) string {
	u = strings.TrimSpace(u)
	lower := strings.ToLower(u[:min(len(u), 8)])
	switch {
	case strings.HasPrefix(lower, "http://"), strings.HasPrefix(lower, "https://"), strings.HasPrefix(lower, "ftp://"):
		u = u[strings.Index(u, "://")+3:]
	case strings.HasPrefix(lower, "www."):
	default:
		return ""
	}
	end := strings.IndexAny(u, "/?#\\ \t\r\n\"'<>")
	if end >= 0 {
		u = u[:end]
	}
	if at := strings.LastIndexByte(u, '@'); at >= 0 { // user info, a trick of phishing
		u = u[at+1:]
	}
	if strings.IndexByte(u, ':') >= 0 { // a port, or an IPv6 address; SplitHostPort allocates an error without one
		if host, _, err := net.SplitHostPort(u); err == nil {
			u = host
		}
	}
	return strings.Trim(strings.ToLower(u), ".[]")
}

// textHosts calls f with the host of each URL in plain text: after a
// scheme's "://", or starting "www.".
func textHosts(s string, f func(host string)) {
	scheme, www := next(s, 0, "://"), next(s, 0, "www.")
	for scheme >= 0 || www >= 0 {
		if www < 0 || scheme >= 0 && scheme < www {
			start := scheme
			for start > 0 && start > scheme-5 && isLetter(s[start-1]) {
				start--
			}
			if host := urlHost(s[start : scheme+3+urlLen(s[scheme+3:])]); host != "" {
				f(host)
			}
			scheme = next(s, scheme+3, "://")
			continue
		}
		if www == 0 || !isLetter(s[www-1]) && s[www-1] != '/' && s[www-1] != '.' {
			if host := urlHost(s[www : www+urlLen(s[www:])]); host != "" {
				f(host)
			}
		}
		www = next(s, www+4, "www.")
	}
}

// next returns the index of the ASCII lowercase sep in s at or after i,
// ignoring case, or -1.
func next(s string, i int, sep string) int {
	for i+len(sep) <= len(s) {
		j := strings.IndexAny(s[i:], sep[:1]+strings.ToUpper(sep[:1]))
		if j < 0 {
			return -1
		}
		i += j
		if i+len(sep) <= len(s) && strings.EqualFold(s[i:i+len(sep)], sep) {
			return i
		}
		i++
	}
	return -1
}

// urlLen returns the length of the URL-ish run at the start of s.
func urlLen(s string) int {
	n := strings.IndexAny(s, " \t\r\n\"'<>()[]{}")
	if n < 0 {
		return len(s)
	}
	return n
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
