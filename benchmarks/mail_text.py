"""Decodes raw RFC 822 mail into the text a filter should read, the anchor
the mail benchmarks give scikit-learn: the Subject, From and To headers, the
text/plain parts and the text/html parts with their tags stripped (script
and style dropped, entities decoded), each part in its declared charset.

usage: mail_text.py FILE…   prints each file's decoded text
"""
import email
import email.policy
import sys
from html.parser import HTMLParser


class _Strip(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        elif tag in ("br", "p", "div", "tr", "li"):
            self.out.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


def strip_html(html):
    p = _Strip()
    try:
        p.feed(html)
        p.close()
    except Exception:  # malformed markup: keep what was read
        pass
    return " ".join("".join(p.out).split())


def part_text(part):
    payload = part.get_payload(decode=True) or b""
    charset = part.get_content_charset() or "latin-1"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:  # an unknown charset name
        return payload.decode("latin-1")


def header(msg, name):
    try:
        return str(msg.get(name, ""))
    except Exception:  # a header the policy cannot parse
        return ""


def decode(raw):
    """The text of one raw message (bytes); Latin-1 of the bytes when the
    parser fails."""
    try:
        return _decode(raw)
    except Exception:
        return raw.decode("latin-1")


def _decode(raw):
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    lines = [header(msg, h) for h in ("Subject", "From", "To")]
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain":
            lines.append(part_text(part))
        elif ctype == "text/html":
            lines.append(strip_html(part_text(part)))
    return "\n".join(lines)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, "rb") as fh:
            print(decode(fh.read()))
