package mail

import (
	"fmt"
	"strings"

	"github.com/textnb/textnb/internal/mailfile"
)

// Features is a set of feature token groups.
type Features uint8

// The feature groups. Each renders tokens that start with Marker, but for
// Title, which repeats the Subject line.
const (
	// Title counts the Subject twice, as a title: it is the first line of
	// the document and repeated once.
	Title Features = 1 << iota
	// Addresses renders the From, Reply-To and Return-Path addresses and
	// their domains: ǂfrom_bob_example_com ǂfromdom_example_com, and
	// ǂreplyto_…, ǂreplytodom_…, ǂreturnpath_…, ǂreturnpathdom_….
	Addresses
	// URLs renders the host of every link of the body, in the text or in
	// HTML attributes: ǂurl_www_example_com.
	URLs
	// Structure renders ǂhtmlonly (HTML without a text/plain part),
	// ǂattach_application_pdf and ǂattachext_pdf for an attachment's type
	// and file name extension, ǂcharset_iso_8859_1 for each declared
	// charset, ǂnodate and ǂnomsgid for a missing Date or Message-ID, and
	// ǂdamaged for a message that did not parse cleanly.
	Structure
	// Headers renders the names of the header fields present
	// (ǂhdr_list_id, ǂhdr_x_mailer, …), the mailer (ǂmailer_ and the first
	// word of X-Mailer or User-Agent) and the domains of the hosts of the
	// Received fields (ǂrcvd_example_com), as header-reading filters such
	// as SpamBayes do.
	Headers

	// AllFeatures is every group: the default.
	AllFeatures = Title | Addresses | URLs | Structure | Headers
)

var featureNames = []struct {
	f    Features
	name string
}{{Title, "subject"}, {Addresses, "addr"}, {URLs, "url"}, {Structure, "struct"}, {Headers, "hdr"}}

// String names the set as UnmarshalText reads it: "all", "none" or a
// comma-separated list of subject, addr, url, struct and hdr.
func (f Features) String() string {
	switch f & AllFeatures {
	case AllFeatures:
		return "all"
	case 0:
		return "none"
	}
	var names []string
	for _, n := range featureNames {
		if f&n.f != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, ",")
}

// MarshalText writes the set as String does, for flag.TextVar and
// encoding/json.
func (f Features) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads "all" (or ""), "none" or a comma-separated list of
// the group names subject, addr, url, struct and hdr; an unknown name is
// an error and leaves f unchanged.
func (f *Features) UnmarshalText(b []byte) error {
	v, err := parseFeatures(string(b))
	if err == nil {
		*f = v
	}
	return err
}

// parseFeatures reads "all", "none" or a comma-separated list of the group
// names subject, addr, url, struct and hdr.
func parseFeatures(s string) (Features, error) {
	switch strings.TrimSpace(s) {
	case "all", "":
		return AllFeatures, nil
	case "none":
		return 0, nil
	}
	var f Features
next:
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		for _, n := range featureNames {
			if part == n.name {
				f |= n.f
				continue next
			}
		}
		return 0, fmt.Errorf("mail features %q: unknown group %q; want all, none or a list of subject, addr, url, struct, hdr", s, part)
	}
	return f, nil
}

// Default limits; see Config.
const (
	DefaultMaxMessage = mailfile.DefaultMaxMessage
	DefaultMaxHeader  = 1 << 20
	DefaultMaxDepth   = 16
	DefaultMaxParts   = 1000
)

// Config configures decoding. Its zero value renders every feature group
// with the default limits.
type Config struct {
	// Omit lists the feature groups not to render; zero renders them all.
	Omit Features
	// MaxMessage caps the bytes of a message that are read (an mbox
	// message beyond it is cut and the rest skipped); 0 means
	// DefaultMaxMessage.
	MaxMessage int
	// MaxHeader caps the bytes of a header block, and of any one field;
	// 0 means DefaultMaxHeader.
	MaxHeader int
	// MaxDepth caps the nesting of multipart bodies and attached
	// messages; deeper parts are skipped. 0 means DefaultMaxDepth.
	MaxDepth int
	// MaxParts caps the parts of a message that are read; 0 means
	// DefaultMaxParts.
	MaxParts int
}

// WithFeatures returns the Config that renders exactly f.
func WithFeatures(f Features) Config { return Config{Omit: AllFeatures &^ f} }

// features returns the groups c renders.
func (c Config) features() Features { return AllFeatures &^ c.Omit }

func (c Config) maxMessage() int { return orDefault(c.MaxMessage, DefaultMaxMessage) }
func (c Config) maxHeader() int  { return orDefault(c.MaxHeader, DefaultMaxHeader) }
func (c Config) maxDepth() int   { return orDefault(c.MaxDepth, DefaultMaxDepth) }
func (c Config) maxParts() int   { return orDefault(c.MaxParts, DefaultMaxParts) }

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
