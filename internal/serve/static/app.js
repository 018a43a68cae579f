// The textnb page: pick a model, classify a text, show the probabilities
// and which terms drove the decision, or, for a multi-label model, the
// labels above their thresholds. No dependencies.
"use strict";

const $ = (id) => document.getElementById(id);
let models = [];

function headers() {
  const h = { "Content-Type": "application/json" };
  const tok = $("token").value.trim();
  if (tok) h["Authorization"] = "Bearer " + tok;
  return h;
}

async function api(path, body) {
  const opt = { headers: headers() };
  if (body !== undefined) {
    opt.method = "POST";
    opt.body = JSON.stringify(body);
  }
  const res = await fetch(path, opt);
  let data;
  try {
    data = await res.json();
  } catch (e) {
    throw new Error(res.status + " " + res.statusText);
  }
  if (res.status === 401) $("token-label").hidden = false;
  if (!res.ok) throw new Error(data.error || res.status + " " + res.statusText);
  return data;
}

function showError(msg) {
  $("error").textContent = msg;
  $("error").hidden = !msg;
}

async function loadModels() {
  const data = await api("/v1/models");
  models = data.models.filter((m) => m.kind === "text" || m.kind === "multi-label");
  const sel = $("model");
  sel.replaceChildren();
  for (const m of models) {
    const o = document.createElement("option");
    o.value = m.name;
    o.textContent = m.name;
    sel.append(o);
  }
  if (models.length === 0) throw new Error("this server has no text or multi-label models");
  const want = new URLSearchParams(location.search).get("model");
  if (want && models.some((m) => m.name === want)) sel.value = want;
  showInfo();
}

function showInfo() {
  const m = models.find((m) => m.name === $("model").value);
  const what = m && m.kind === "multi-label" ? " labels" : " classes";
  $("info").textContent = m ? m.classes.length + what + ", version " + m.generation : "";
}

// bars shows each class's probability, the chosen ones (a Set) in green;
// a multi-label model's thresholds, if given, as a mark on each bar.
function bars(classes, proba, chosen, thresholds) {
  const box = $("bars");
  box.replaceChildren();
  const order = classes.map((c, i) => i).sort((a, b) => proba[classes[b]] - proba[classes[a]]);
  for (const i of order) {
    const c = classes[i];
    const p = proba[c];
    const row = document.createElement("div");
    row.className = "bar" + (chosen.has(c) ? " best" : "");
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = c;
    name.title = c;
    const track = document.createElement("span");
    track.className = "track";
    const fill = document.createElement("span");
    fill.className = "fill";
    fill.style.display = "block";
    fill.style.width = (100 * p).toFixed(1) + "%";
    track.append(fill);
    if (thresholds && c in thresholds) {
      const tick = document.createElement("span");
      tick.className = "threshold";
      tick.style.left = (100 * thresholds[c]).toFixed(1) + "%";
      tick.title = "threshold " + (100 * thresholds[c]).toFixed(1) + "%";
      track.append(tick);
    }
    const num = document.createElement("span");
    num.className = "p";
    num.textContent = (100 * p).toFixed(1) + "%";
    row.append(name, track, num);
    box.append(row);
  }
}

// highlight marks each occurrence of an explained term in text, longest
// terms first, shaded by its contribution.
function highlight(text, terms) {
  const out = $("highlighted");
  out.replaceChildren();
  const lower = text.toLowerCase();
  const max = Math.max(...terms.map((t) => Math.abs(t.contribution)), 1e-12);
  const marks = new Array(text.length).fill(null);
  const byLength = terms.filter((t) => !t.term.includes(" ")).sort((a, b) => b.term.length - a.term.length);
  for (const t of byLength) {
    const needle = t.term.toLowerCase();
    if (!needle) continue;
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
      const before = at > 0 ? lower[at - 1] : " ";
      const after = at + needle.length < lower.length ? lower[at + needle.length] : " ";
      const wordy = /[\p{L}\p{N}]/u;
      const han = /\p{Script=Han}/u;
      if (!han.test(needle) && (wordy.test(before) || wordy.test(after))) continue;
      let free = true;
      for (let i = at; i < at + needle.length; i++) if (marks[i]) free = false;
      if (!free) continue;
      for (let i = at; i < at + needle.length; i++) marks[i] = t;
    }
  }
  for (let i = 0; i < text.length; ) {
    const t = marks[i];
    let j = i + 1;
    while (j < text.length && marks[j] === t) j++;
    const piece = text.slice(i, j);
    if (t) {
      const m = document.createElement("mark");
      const a = (0.15 + 0.6 * Math.abs(t.contribution) / max).toFixed(2);
      m.style.background = t.contribution >= 0 ? `rgba(42,157,85,${a})` : `rgba(200,50,50,${a})`;
      m.title = t.term + ": " + t.contribution.toFixed(3);
      m.textContent = piece;
      out.append(m);
    } else {
      out.append(document.createTextNode(piece));
    }
    i = j;
  }
  const list = $("terms");
  list.replaceChildren();
  for (const t of terms) {
    const li = document.createElement("li");
    const m = document.createElement("mark");
    m.className = t.contribution >= 0 ? "toward" : "against";
    m.textContent = t.term;
    li.append(m, " " + (t.contribution >= 0 ? "+" : "") + t.contribution.toFixed(3));
    list.append(li);
  }
}

async function classify(ev) {
  if (ev) ev.preventDefault();
  showError("");
  const name = $("model").value;
  const text = $("text").value;
  $("submit").disabled = true;
  try {
    const m = models.find((m) => m.name === name);
    const listedMulti = m && m.kind === "multi-label";
    // A multi-label model answers the labels above their thresholds
    // instead of one label, and the page shows no explanation for it.
    const r = await api("/v1/models/" + encodeURIComponent(name) + "/predict", listedMulti ? { text: text } : { text: text, explain: true });
    // The answer, not the list loaded with the page, says what the model
    // is now: a reload may have replaced its file with the other kind.
    const multi = Array.isArray(r.labels);
    const current = m && multi === listedMulti;
    const chosen = multi ? r.labels.map((l) => l.label) : [r.label];
    $("label-heading").textContent = multi ? "Labels" : "Label";
    $("label").textContent = multi ? chosen.join(", ") || "none" : r.label;
    $("multi-note").hidden = !multi;
    bars(current ? m.classes : Object.keys(r.proba), r.proba, new Set(chosen), multi && current ? m.thresholds : null);
    const terms = explained(r);
    $("explain").hidden = terms.length === 0;
    if (terms.length) {
      $("toward").textContent = r.explanation.label;
      $("against").textContent = r.explanation.runner_up_label;
      highlight(text, terms);
    }
    $("result").hidden = false;
    document.body.dataset.state = "done";
  } catch (e) {
    showError(e.message);
    document.body.dataset.state = "error";
  } finally {
    $("submit").disabled = false;
  }
}

// explained returns the explanation's terms as {term, contribution}.
function explained(r) {
  const e = r.explanation;
  if (!e || !Array.isArray(e.terms)) return [];
  return e.terms.map((t) => ({ term: t.term, contribution: t.weight }));
}

async function start() {
  $("form").addEventListener("submit", classify);
  $("model").addEventListener("change", showInfo);
  // A server with a token answers 401 until one is typed in.
  $("token").addEventListener("change", () => loadModels().then(() => showError(""), (e) => showError(e.message)));
  try {
    await loadModels();
  } catch (e) {
    showError(e.message);
    return;
  }
  // ?text= fills in the text and classifies it: a link to a result.
  const q = new URLSearchParams(location.search).get("text");
  if (q !== null) {
    $("text").value = q;
    $("form").requestSubmit();
  }
}

start();
