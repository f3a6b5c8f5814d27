// The schedule as an HTML/SVG page (trace_html.hpp). The SVG is laid out here, in pixels: a
// gutter with the step numbers, then one lane per thread whose width follows its longest
// statement; row i of the trace is drawn at height kHeader + i * kRowH, in its thread's lane,
// so time runs downwards and every row has the page's full width to itself (arrows run
// horizontally along the row of their create or join step without crossing a box).
#include "apps/siren/trace_html.hpp"

#include "race/triage_batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace siren::app {

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

constexpr double kCharW = 7.25;  // width of one character of the 12px monospace font
constexpr int kGutter = 56;      // step numbers
constexpr int kHeader = 40;      // lane names
constexpr int kRowH = 44;
constexpr int kBoxH = 36;
constexpr int kPad = 8;  // between a box and its lane's edge
constexpr int kMinLane = 200, kMaxLane = 460;

std::string esc(std::string_view s) { return html_escape(s); }

// `s` cut to at most `n` characters (UTF-8 sequences kept whole), "…" marking a cut.
std::string clip(const std::string& s, std::size_t n) {
  if (s.size() <= n) return s;
  std::size_t end = n > 1 ? n - 1 : 0;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end) + "\u2026";
}

std::string values_text(const ir::TraceRow& row) {
  std::string out;
  for (const auto& [name, value] : row.values) out += (out.empty() ? "" : "  ") + name + "=" + value;
  return out;
}

const char* access_word(char access) {
  switch (access) {
    case 'R': return "shared read";
    case 'W': return "shared write";
    case 'B': return "shared read+write";
    case 'S': return "sync";
    default: return "";
  }
}

// The expression between "pthread_<call>(" and the first comma at depth 0, trimmed; "" if none.
std::string first_argument(const std::string& stmt, const std::string& call) {
  const auto at = stmt.find(call + "(");
  if (at == std::string::npos) return "";
  std::size_t i = at + call.size() + 1;
  int depth = 0;
  std::string arg;
  for (; i < stmt.size(); ++i) {
    const char c = stmt[i];
    if ((c == ',' || c == ')') && depth == 0) break;
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    arg += c;
  }
  const auto b = arg.find_first_not_of(" \t"), e = arg.find_last_not_of(" \t");
  return b == std::string::npos ? "" : arg.substr(b, e - b + 1);
}

// One box of the drawing: a trace row, or (race) a racing access that comes next.
struct Box {
  std::size_t lane = 0, slot = 0;  // slot: row index; rows.size() for the racing accesses
  const ir::TraceRow* row = nullptr;
  const race::RaceEnd* next = nullptr;
};

struct Layout {
  std::vector<std::string> threads;   // lane order
  std::vector<int> x, width;          // per lane
  std::vector<Box> boxes;
  std::map<std::string, std::size_t> lane_of;
  int total_width = 0, total_height = 0;

  std::size_t lane(const std::string& thread) {
    auto [it, fresh] = lane_of.emplace(thread, threads.size());
    if (fresh) threads.push_back(thread);
    return it->second;
  }
  int center(std::size_t lane) const { return x[lane] + width[lane] / 2; }
  static int top(std::size_t slot) { return kHeader + static_cast<int>(slot) * kRowH + (kRowH - kBoxH) / 2; }
  static int middle(std::size_t slot) { return top(slot) + kBoxH / 2; }
  int left(const Box& b) const { return x[b.lane] + kPad; }
  int right(const Box& b) const { return x[b.lane] + width[b.lane] - kPad; }
};

Layout lay_out(const TracePage& page) {
  Layout l;
  for (std::size_t i = 0; i < page.rows.size(); ++i) {
    const ir::TraceRow& r = page.rows[i];
    l.boxes.push_back({l.lane(r.thread), i, &r, nullptr});
    if (!r.started.empty()) l.lane(r.started);
  }
  for (const race::RaceEnd& e : page.racing) l.boxes.push_back({l.lane(e.thread_name), page.rows.size(), nullptr, &e});
  std::vector<std::size_t> chars(l.threads.size(), 0);
  for (std::size_t t = 0; t < l.threads.size(); ++t) chars[t] = l.threads[t].size();
  for (const Box& b : l.boxes) {
    const std::string stmt = b.row ? b.row->stmt : b.next->stmt;
    const unsigned line = b.row ? b.row->line : b.next->line;
    const std::size_t second = b.row ? values_text(*b.row).size() + 20 : b.next->variable.size() + 24;
    chars[b.lane] = std::max({chars[b.lane], std::to_string(line).size() + 1 + stmt.size(), second});
  }
  int at = kGutter;
  for (std::size_t t = 0; t < l.threads.size(); ++t) {
    const int w = static_cast<int>(static_cast<double>(chars[t]) * kCharW) + 2 * kPad + 16;
    l.x.push_back(at);
    l.width.push_back(std::clamp(w, kMinLane, kMaxLane));
    at += l.width.back();
  }
  l.total_width = at + kPad;
  const std::size_t slots = page.rows.size() + (page.racing.empty() ? 0 : 1);
  l.total_height = kHeader + static_cast<int>(slots) * kRowH + kPad;
  return l;
}

// The characters that fit on one line of a box of lane `lane`, less `reserve` pixels.
std::size_t fit(const Layout& l, std::size_t lane, int reserve) {
  const int room = l.width[lane] - 2 * kPad - 12 - reserve;
  return room > 0 ? static_cast<std::size_t>(room / kCharW) : 1;
}

std::string draw_box(const Layout& l, const Box& b, bool failing) {
  const ir::TraceRow* r = b.row;
  const race::RaceEnd* n = b.next;
  const std::string thread = r ? r->thread : n->thread_name;
  const std::string file = r ? r->file : n->file;
  const unsigned line = r ? r->line : n->line;
  const std::string stmt = r ? r->stmt : n->stmt;
  const char access = r ? r->access : (n->write ? 'W' : 'R');
  std::string cls = fmt::format("step acc-{}", access);
  if (failing) cls += " failing";
  if (n) cls += " racing";

  std::string second;  // the small second line: values, and what is marked
  std::string mark;
  if (r) second = values_text(*r);
  if (failing) mark = "\u2717 fails here";
  if (n) mark = fmt::format("\u2717 races: next {} of {}", n->write ? "write" : "read", n->variable);
  const std::string badge = mark.empty() ? access_word(access) : "";

  std::string tip = fmt::format("{} \u00b7 {} \u00b7 {}:{}\n{}", r ? "step " + std::to_string(r->step) : "next step",
                                thread, file, line, stmt);
  if (!second.empty()) tip += "\n" + second;
  if (!mark.empty()) tip += "\n" + mark;
  if (!badge.empty()) tip += "\n" + std::string(badge);

  const int x = l.left(b), y = Layout::top(b.slot), w = l.right(b) - l.left(b);
  std::string out = fmt::format(
      "<g class=\"{}\" data-step=\"{}\" data-thread=\"{}\" data-file=\"{}\" data-line=\"{}\">"
      "<title>{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\"/>",
      cls, r ? std::to_string(r->step) : "next", esc(thread), esc(file), line, esc(tip), x, y, w, kBoxH);
  const std::string ln = std::to_string(line);
  out += fmt::format("<text class=\"stmt\" x=\"{}\" y=\"{}\"><tspan class=\"ln\">{}</tspan> {}</text>", x + 6, y + 14,
                     ln, esc(clip(stmt, fit(l, b.lane, 0) - ln.size() - 1)));
  const std::string right = mark.empty() ? badge : mark;
  const int right_px = static_cast<int>(static_cast<double>(right.size()) * kCharW * 0.85);
  if (!second.empty())
    out += fmt::format("<text class=\"vals\" x=\"{}\" y=\"{}\">{}</text>", x + 6, y + 29,
                       esc(clip(second, static_cast<std::size_t>(fit(l, b.lane, right_px) * 1.2))));
  if (!right.empty())
    out += fmt::format("<text class=\"{}\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                       mark.empty() ? "badge" : "mark", x + w - 6, y + 29, esc(right));
  return out + "</g>\n";
}

// Arrows from each create step to the first box of the thread it started, and from a joined
// thread's last box to the join step that waited for it. The joined thread is found by the
// handle: `pthread_join(h, ...)` joins the thread of `pthread_create(&h, ...)`; a join whose
// handle names no thread, or more than one (handles in an array indexed in a loop), gets no
// arrow.
std::string draw_arrows(const Layout& l, const TracePage& page) {
  std::string out;
  std::vector<const Box*> first(l.threads.size(), nullptr), last(l.threads.size(), nullptr);
  for (const Box& b : l.boxes) {
    if (!first[b.lane]) first[b.lane] = &b;
    last[b.lane] = &b;
  }
  std::map<std::string, std::vector<std::size_t>> by_handle;  // handle expression -> lanes created with it
  std::vector<bool> joined(l.threads.size(), false);
  for (const Box& b : l.boxes) {
    if (!b.row) continue;
    const ir::TraceRow& r = *b.row;
    if (!r.started.empty()) {
      const std::size_t to = l.lane_of.at(r.started);
      std::string handle = first_argument(r.stmt, "pthread_create");
      if (handle.size() > 1 && handle[0] == '&') by_handle[handle.substr(1)].push_back(to);
      // To the first box of the new thread, or a short stub when it has not run yet.
      const bool has_box = first[to] && first[to]->slot > b.slot;
      const int x0 = l.center(to) > l.center(b.lane) ? l.right(b) : l.left(b);
      const int y0 = Layout::middle(b.slot);
      const int y1 = has_box ? Layout::top(first[to]->slot) - 2 : Layout::middle(b.slot) + kRowH / 2;
      out += fmt::format("<path class=\"create\" d=\"M{} {} H{} V{}\" marker-end=\"url(#arrow-create)\">"
                         "<title>{} creates {}</title></path>\n",
                         x0, y0, l.center(to), y1, esc(r.thread), esc(r.started));
      if (!has_box)
        out += fmt::format("<text class=\"vals\" x=\"{}\" y=\"{}\">(has not run)</text>\n", l.center(to) + 6,
                           y1 + 4);
    }
    if (r.access == 'S' && r.stmt.find("pthread_join") != std::string::npos) {
      const auto it = by_handle.find(first_argument(r.stmt, "pthread_join"));
      if (it == by_handle.end()) continue;
      std::vector<std::size_t> open;
      for (std::size_t t : it->second)
        if (!joined[t] && last[t] && last[t]->slot < b.slot) open.push_back(t);
      if (open.size() != 1) continue;
      const std::size_t from = open[0];
      joined[from] = true;
      const int x1 = l.center(from) > l.center(b.lane) ? l.right(b) : l.left(b);
      out += fmt::format("<path class=\"join\" d=\"M{} {} V{} H{}\" marker-end=\"url(#arrow-join)\">"
                         "<title>{} joins {}</title></path>\n",
                         l.center(from), Layout::top(last[from]->slot) + kBoxH, Layout::middle(b.slot), x1,
                         esc(r.thread), esc(l.threads[from]));
    }
  }
  // The two racing accesses: a red line between the boxes.
  if (page.racing.size() == 2) {
    const Box* a = nullptr;
    const Box* c = nullptr;
    for (const Box& b : l.boxes)
      if (b.next) (a ? c : a) = &b;
    if (a && c && a->lane != c->lane) {
      if (a->lane > c->lane) std::swap(a, c);
      out += fmt::format("<path class=\"race\" d=\"M{} {} H{}\"/>\n", l.right(*a), Layout::middle(a->slot), l.left(*c));
    }
  }
  return out;
}

constexpr const char* kStyle = R"(
body { font: 14px/1.45 system-ui, sans-serif; margin: 16px 20px; color: #1f2937; background: #fff; }
h1 { font-size: 18px; margin: 0 0 4px; }
h1 code { font-size: 17px; }
.verdict { font-weight: 600; margin: 0 0 4px; }
.verdict.unsafe { color: #b91c1c; }
.summary, .note { color: #4b5563; margin: 0 0 8px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 14px; margin: 4px 0 12px; font-size: 12px; color: #374151; }
.legend span { display: inline-flex; align-items: center; gap: 5px; }
.sw { display: inline-block; width: 22px; height: 12px; border: 1.5px solid; border-radius: 3px; }
.sw.R { background: #dbeafe; border-color: #3b82f6; } .sw.W { background: #ffedd5; border-color: #ea580c; }
.sw.B { background: #f3e8ff; border-color: #9333ea; } .sw.S { background: #e5e7eb; border-color: #6b7280; }
.sw.L { background: #fff; border-color: #9ca3af; } .sw.X { background: #fee2e2; border-color: #dc2626; border-width: 2.5px; }
.arrow-c { color: #15803d; } .arrow-j { color: #7c3aed; }
svg text { font: 12px ui-monospace, "DejaVu Sans Mono", monospace; fill: #111827; }
svg .lane-name { font-weight: bold; font-size: 13px; }
svg .lane-bg { fill: #f9fafb; } svg .lane-bg.odd { fill: #f3f4f6; }
svg .lifeline { stroke: #d1d5db; stroke-dasharray: 2 4; }
svg .stepno { fill: #6b7280; font-size: 11px; }
.step rect { fill: #fff; stroke: #9ca3af; stroke-width: 1.2; }
.step.acc-R rect { fill: #dbeafe; stroke: #3b82f6; }
.step.acc-W rect { fill: #ffedd5; stroke: #ea580c; }
.step.acc-B rect { fill: #f3e8ff; stroke: #9333ea; }
.step.acc-S rect { fill: #e5e7eb; stroke: #6b7280; }
.step.failing rect, .step.racing rect { fill: #fee2e2; stroke: #dc2626; stroke-width: 2.5; }
.step.racing rect { stroke-dasharray: 7 3; }
.step.same-line rect { stroke: #111827; stroke-width: 2.5; }
svg .ln { fill: #9ca3af; }
svg .vals { font-size: 10.5px; fill: #4b5563; }
svg .badge { font-size: 10px; fill: #6b7280; }
svg .mark { font-size: 11px; font-weight: bold; fill: #dc2626; }
svg .create { stroke: #15803d; stroke-width: 1.6; fill: none; }
svg .join { stroke: #7c3aed; stroke-width: 1.6; fill: none; stroke-dasharray: 6 3; }
svg .race { stroke: #dc2626; stroke-width: 2.5; fill: none; stroke-dasharray: 4 3; }
)";

// Hovering a box outlines every box of the same source line; the last statement records that
// the script ran (data-lanes, which the tests read from the DOM).
constexpr const char* kScript = R"(
(function () {
  var steps = Array.prototype.slice.call(document.querySelectorAll('.step'));
  steps.forEach(function (s) {
    s.addEventListener('mouseenter', function () {
      steps.forEach(function (o) {
        if (o.dataset.file === s.dataset.file && o.dataset.line === s.dataset.line) o.classList.add('same-line');
      });
    });
    s.addEventListener('mouseleave', function () {
      steps.forEach(function (o) { o.classList.remove('same-line'); });
    });
  });
  document.documentElement.dataset.lanes = String(document.querySelectorAll('.lane').length);
})();
)";

std::string legend() {
  return "<div class=\"legend\">"
         "<span><i class=\"sw R\"></i>shared read</span><span><i class=\"sw W\"></i>shared write</span>"
         "<span><i class=\"sw B\"></i>shared read+write</span>"
         "<span><i class=\"sw S\"></i>synchronisation (lock, unlock, create, join)</span>"
         "<span><i class=\"sw L\"></i>locals only</span>"
         "<span><i class=\"sw X\"></i>failing statement / racing access</span>"
         "<span class=\"arrow-c\">&#x2192; creates</span><span class=\"arrow-j\">&#x21e2; joins</span></div>\n";
}

}  // namespace

std::string trace_html(const TracePage& page) {
  const Layout l = lay_out(page);
  const bool unsafe = !page.rows.empty() || !page.racing.empty();
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += fmt::format("<title>siren {}: {}: {}</title>\n", esc(page.command), esc(page.program), esc(page.verdict));
  out += fmt::format("<style>{}</style>\n</head>\n<body>\n", kStyle);
  out += fmt::format("<h1>siren {} <code>{}</code></h1>\n<p class=\"verdict{}\">{}</p>\n", esc(page.command),
                     esc(page.program), unsafe ? " unsafe" : "", esc(page.verdict));
  if (!unsafe) {
    out += "<p class=\"summary\">No counterexample: there is no schedule to draw.</p>\n";
  } else {
    std::string what = fmt::format("{} rows, {} threads; time runs downwards. Hover a row for its full text and "
                                   "every row at the same source line.",
                                   page.rows.size(), l.threads.size());
    if (page.racing.size() == 2) {
      const race::RaceEnd& a = page.racing[0];
      const race::RaceEnd& b = page.racing[1];
      what = fmt::format("Data race on <code>{}</code>: the {} by {} ({}:{}) and the {} by {} ({}:{}) are both "
                         "threads' next steps after the last row. ",
                         esc(a.variable), a.write ? "write" : "read", esc(a.thread_name), esc(a.file), a.line,
                         b.write ? "write" : "read", esc(b.thread_name), esc(b.file), b.line) +
             what;
    }
    out += "<p class=\"summary\">" + what + "</p>\n" + legend();
    out += fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\n",
                       l.total_width, l.total_height, l.total_width, l.total_height);
    out += "<defs>"
           "<marker id=\"arrow-create\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
           "orient=\"auto\"><path d=\"M0 0 L10 5 L0 10 z\" fill=\"#15803d\"/></marker>"
           "<marker id=\"arrow-join\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
           "orient=\"auto\"><path d=\"M0 0 L10 5 L0 10 z\" fill=\"#7c3aed\"/></marker></defs>\n";
    for (std::size_t t = 0; t < l.threads.size(); ++t) {
      out += fmt::format("<g class=\"lane\" data-thread=\"{}\">", esc(l.threads[t]));
      out += fmt::format("<rect class=\"lane-bg{}\" x=\"{}\" y=\"0\" width=\"{}\" height=\"{}\"/>", t % 2 ? " odd" : "",
                         l.x[t], l.width[t], l.total_height);
      out += fmt::format("<line class=\"lifeline\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", l.center(t), kHeader - 8,
                         l.center(t), l.total_height);
      out += fmt::format("<text class=\"lane-name\" x=\"{}\" y=\"24\" text-anchor=\"middle\">{}</text>\n", l.center(t),
                         esc(l.threads[t]));
      for (const Box& b : l.boxes)
        if (b.lane == t) out += draw_box(l, b, page.last_row_fails && b.row && b.slot + 1 == page.rows.size());
      out += "</g>\n";
    }
    for (std::size_t i = 0; i < page.rows.size(); ++i)
      out += fmt::format("<text class=\"stepno\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", kGutter - 10,
                         Layout::middle(i) + 4, page.rows[i].step);
    if (!page.racing.empty())
      out += fmt::format("<text class=\"stepno\" x=\"{}\" y=\"{}\" text-anchor=\"end\">next</text>", kGutter - 10,
                         Layout::middle(page.rows.size()) + 4);
    out += "\n" + draw_arrows(l, page) + "</svg>\n";
  }
  out += fmt::format("<script>{}</script>\n</body>\n</html>\n", kScript);
  return out;
}

bool write_trace_html(const std::string& path, const TracePage& page) {
  if (race::replace_file(path, trace_html(page))) return true;
  std::fprintf(stderr, "siren: cannot write %s\n", path.c_str());
  return false;
}

void add_trace_html_option(CLI::App* cmd, std::string& path) {
  cmd->add_option("--trace-html", path,
                  "Also write the result as one self-contained HTML page to FILE: UNSAFE draws the replayed "
                  "schedule (a swim lane per thread, time downwards, source line per step, shared accesses "
                  "highlighted, create/join arrows, the failing statement or both racing accesses in red); "
                  "other verdicts give a page stating the verdict")
      ->type_name("FILE");
}

}  // namespace siren::app
