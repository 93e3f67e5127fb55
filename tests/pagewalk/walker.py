"""The walking check's parts: what a page is measured for in the browser, which English texts a French or
German page must not show, and how the site's links are followed (same origin, bounded, one URL per kind).

Independent of the data: ``tests/pagewalk/test_walk.py`` builds the federation and drives these.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "walk"

# What the browser measures on a page, in one script: the page's overflow, elements drawn outside the window
# with no scroll box around them, text cut or spilling out of its box (a table cell, a term or its
# description, a label), the headings and landmarks with their names, and the page's links.
MEASURE = r"""
const W = document.documentElement.clientWidth;
const out = {overflow: document.documentElement.scrollWidth - W, outside: [], cut: [], headings: [], landmarks: [],
             links: []};
const shown = (el) => {
  const box = el.getBoundingClientRect();
  if (box.width < 2 || box.height < 2) return false;
  for (let up = el; up && up !== document.documentElement; up = up.parentElement) {
    const s = getComputedStyle(up);
    if (s.display === 'none' || s.visibility === 'hidden') return false;
    if (s.clip && s.clip !== 'auto') return false;                  // visually hidden, read by screen readers
    if (s.clipPath && s.clipPath !== 'none') return false;
    if (s.position === 'fixed' || s.position === 'absolute') {
      const b = up.getBoundingClientRect();
      if (b.right < 0 || b.bottom < 0) return false;              // a skip link parked out of view
    }
  }
  return true;
};
const path = (el) => {
  const parts = [];
  for (let up = el; up && up !== document.body && parts.length < 4; up = up.parentElement) {
    let part = up.tagName.toLowerCase();
    if (up.id) part += '#' + up.id;
    else if (up.classList.length) part += '.' + [...up.classList].slice(0, 2).join('.');
    parts.unshift(part);
  }
  return parts.join(' > ');
};
const text = (el) => (el.innerText || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 60);
const boxOf = (el) => {                       // the nearest ancestor that scrolls or clips horizontally
  for (let up = el.parentElement; up && up !== document.documentElement; up = up.parentElement) {
    const s = getComputedStyle(up).overflowX;
    if (s !== 'visible') return [up, s];
  }
  return [null, null];
};
for (const el of document.body.querySelectorAll('*')) {
  if (out.outside.length > 20) break;
  const box = el.getBoundingClientRect();
  if (box.right <= W + 1 && box.left >= -1) continue;
  if (!shown(el)) continue;
  const [scroller, how] = boxOf(el);
  if (scroller === null || scroller === document.body) {
    out.outside.push(`${path(el)} [${Math.round(box.left)}..${Math.round(box.right)} of ${W}] "${text(el)}"`);
  } else if (how === 'hidden' || how === 'clip') {
    const frame = scroller.getBoundingClientRect();
    if (box.right > frame.right + 1 || box.left < frame.left - 1)
      out.cut.push(`${path(el)} cut by ${path(scroller)} "${text(el)}"`);
  }
}
const boxes = 'td, th, dd, dt, label, button, summary, h1, h2, h3, h4, h5, h6, li, p, legend, caption';
for (const el of document.body.querySelectorAll(boxes)) {
  if (out.cut.length > 20) break;
  const s = getComputedStyle(el);
  if (s.display.startsWith('inline') && s.display !== 'inline-block') continue;
  if (s.overflowX === 'auto' || s.overflowX === 'scroll') continue;
  if (el.scrollWidth <= el.clientWidth + 1 || !shown(el)) continue;
  if (!(el.innerText || '').trim() || Math.abs(parseFloat(s.textIndent)) > 100) continue;  // an icon's hidden words
  out.cut.push(`${path(el)} holds ${el.scrollWidth} px in ${el.clientWidth} "${text(el)}"`);
}
const rendered = (el) => {                   // drawn or read: a visually hidden heading counts too
  for (let up = el; up && up !== document.documentElement; up = up.parentElement) {
    const s = getComputedStyle(up);
    if (s.display === 'none' || s.visibility === 'hidden' || up.hidden) return false;
  }
  return true;
};
for (const el of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
  if (rendered(el)) out.headings.push([el.tagName, text(el)]);
}
const named = (el) => {
  const by = el.getAttribute('aria-labelledby');
  const of = (id) => text(document.getElementById(id) || document.createElement('i'));
  if (by) return by.split(/\s+/).map(of).join(' ');
  return (el.getAttribute('aria-label') || '').trim();
};
const landmarks = 'main, nav, aside, header, footer, section[aria-label], section[aria-labelledby], '
  + 'form[aria-label], form[aria-labelledby], [role=region], [role=navigation], [role=search], [role=banner], '
  + '[role=contentinfo], [role=complementary], [role=main], [role=form]';
for (const el of document.querySelectorAll(landmarks)) {
  if (!rendered(el)) continue;
  const tag = el.tagName.toLowerCase();
  if ((tag === 'header' || tag === 'footer') && !el.getAttribute('role')
      && el.parentElement.closest('article, aside, main, nav, section')) continue;   // not a landmark there
  const role = el.getAttribute('role') || {main: 'main', nav: 'navigation', aside: 'complementary',
    header: 'banner', footer: 'contentinfo', section: 'region', form: 'form'}[tag];
  out.landmarks.push([role, named(el)]);
}
for (const a of document.querySelectorAll('a[href]')) {
  out.links.push(new URL(a.getAttribute('href'), location.href).href);
}
out.text = document.title + '\n' + document.body.innerText;
return out;
"""

# Every link's status, asked from the page (same origin, the session's cookies), a few at a time.
STATUSES = r"""
const [urls, done] = [arguments[0], arguments[arguments.length - 1]];
const ask = (url) => fetch(url, {redirect: 'follow', credentials: 'same-origin'})
  .then((r) => { r.body && r.body.cancel(); return [url, r.status]; }).catch((e) => [url, 0]);
(async () => {
  const out = [];
  for (let i = 0; i < urls.length; i += 8) out.push(...await Promise.all(urls.slice(i, i + 8).map(ask)));
  done(out);
})();
"""

# Links not followed as pages: leaving, changing the language, deleting, and files (their status is still
# asked).
NOT_PAGES = re.compile(r"/logout/|/i18n/|/delete/|/jsi18n/|/static/|/media/|/api/|/feeds/|/files/|/metrics|/health/")
FILES = re.compile(r"\.(css|js|png|svg|ico|csv|txt|gz|json|atom|ics|xlsx|pdf|xml|zip)$", re.I)


# Other packages' admin pages (second-factor devices, login attempts) print their own untranslated field names, which
# may be words of this site's catalogue too ("last used at"): the English check leaves them out. So does the
# outbox (/admin/ratings/outgoingmail/): it lists each message as it was sent, in its recipient's language.
THIRD_PARTY = re.compile(r"^/admin/(otp_\w+|axes|ratings/outgoingmail)/")

IDENTIFIER = re.compile(r"\d|^[A-Z0-9]{5,}$")  # a number, a federation id


def kind_of(url: str) -> tuple[str, tuple[str, ...]]:
    """A URL's kind: its path with every segment that holds a digit written as "#", and its query's names
    (sorting and paging names aside), so that one player's page stands for the thousands."""
    parts = urlsplit(url)
    path = "/".join("#" if IDENTIFIER.search(segment) else segment for segment in parts.path.split("/"))
    names = tuple(sorted({name for name, _value in parse_qsl(parts.query) if name not in {"o", "p", "page"}}))
    if path.startswith("/admin/") and names:
        names = ("?",)  # the admin's lists filtered any way: one of them
    return path, names


@dataclass
class Crawl:
    """A breadth-first walk from some start pages: at most ``per_kind`` URLs of a kind, ``limit`` pages."""

    origin: str
    limit: int
    per_kind: int = 1
    inside: str = "/"
    pages: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    kinds: dict[tuple[str, tuple[str, ...]], int] = field(default_factory=dict)
    links: set[str] = field(default_factory=set)

    def offer(self, urls: Iterable[str]) -> None:
        """Take the links of a page; the site's own admin pages before other packages' (users, devices, login
        attempts), so that the bound falls on those."""
        for url in sorted(urls, key=lambda url: "/admin/" in url and "/admin/ratings/" not in url):
            url = url.split("#", 1)[0]
            if not url.startswith(self.origin):
                continue
            self.links.add(url)
            local = url[len(self.origin) :] or "/"
            if url in self.seen or not local.startswith(self.inside) or NOT_PAGES.search(local):
                continue
            if FILES.search(urlsplit(local).path):
                continue
            kind = kind_of(local)
            if self.kinds.get(kind, 0) >= self.per_kind or len(self.pages) >= self.limit:
                continue
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
            self.seen.add(url)
            self.pages.append(url)


def links_to_ask(links: Iterable[str], origin: str, *, per_kind: int = 3) -> list[str]:
    """The links whose status is asked: every kind of link the pages hold, a few of each."""
    counted: dict[tuple[str, tuple[str, ...]], int] = {}
    out = []
    for url in sorted(links):
        if not url.startswith(origin) or "/logout/" in url:
            continue
        kind = kind_of(url[len(origin) :])
        if counted.get(kind, 0) < per_kind:
            counted[kind] = counted.get(kind, 0) + 1
            out.append(url)
    return out


def english_texts(language: str) -> list[str]:
    """The English texts of the site's catalogue for ``language`` that a page in that language must not show:
    each translated msgid's words between its placeholders, when they are at least three words long and the
    translation does not keep them."""
    from babel.messages.pofile import read_po

    with (ROOT / "locale" / language / "LC_MESSAGES" / "django.po").open("rb") as po:
        catalogue = read_po(po)
    translations = " ".join(
        " ".join(m.string) if isinstance(m.string, (list, tuple)) else m.string for m in catalogue if m.id
    )
    out: set[str] = set()
    for message in catalogue:
        if not message.id or not message.string:
            continue
        for english in message.id if isinstance(message.id, (list, tuple)) else [message.id]:
            for piece in re.split(r"%\(\w+\)[sd]|%[sd]|<[^>]+>|\n", english):
                piece = " ".join(piece.split()).strip(" ,.;:()–—-")
                if len(piece.split()) >= 3 and piece not in translations:
                    out.add(piece)
    return sorted(out)


@dataclass
class Finding:
    role: str
    language: str
    width: int
    url: str
    what: str

    def __str__(self) -> str:
        return f"{self.role} {self.language} {self.width}px {self.url}: {self.what}"


def duplicates(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: dict[tuple[str, str], int] = {}
    for pair in pairs:
        seen[tuple(pair)] = seen.get(tuple(pair), 0) + 1  # type: ignore[index]
    return [pair for pair, count in seen.items() if count > 1]


def page_findings(measured: dict[str, Any], *, english: Iterable[str], language: str) -> list[str]:
    """What is wrong with a measured page, in words."""
    out = []
    if measured["overflow"] > 1:
        out.append(f"the page is {measured['overflow']} px wider than the window")
    out += [f"outside the window: {line}" for line in measured["outside"][:5]]
    out += [f"text cut: {line}" for line in measured["cut"][:5]]
    out += [f"duplicate heading {tag} {name!r}" for tag, name in duplicates(measured["headings"])]
    out += [f"duplicate landmark {role} {name!r}" for role, name in duplicates(measured["landmarks"])]
    if language != "en":
        page = " ".join(measured["text"].split())
        out += [f"English text {text!r}" for text in english if text in page][:5]
    return out


def screenshot(driver: Any, name: str, *, width: int) -> Path:
    """The whole page (at most 2500 px high) at the window's width, without resizing the window; a wide window's
    at half scale (a laptop's page stays readable, and it is written in a third of the time)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    height = min(int(driver.execute_script("return document.documentElement.scrollHeight")), 2500)
    scale = 1 if width < 800 else 0.5
    clip = {"x": 0, "y": 0, "width": width, "height": height, "scale": scale}
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}
    )
    target = ARTIFACTS / f"{name}.png"
    target.write_bytes(base64.b64decode(shot["data"]))
    return target


def shot_name(role: str, url: str, origin: str, language: str, width: int) -> str:
    local = url[len(origin) :].strip("/") or "front"
    slug = re.sub(r"[^A-Za-z0-9]+", "-", local).strip("-")[:90]
    return f"{role}-{slug}-{language}-{width}"
